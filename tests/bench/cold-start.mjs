// `mcp-loupe mock` cold start: wall time from spawn to the READY line.
import { percentile, startProcess } from './lib.mjs';

export async function coldStart({ root, dataDir, runs = 7 }) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const p = await startProcess(process.execPath, [`${root}/dist/cli.mjs`, 'mock', 'demo', '--port', '0', '--data-dir', `${dataDir}/cold-${i}`], {
      cwd: root,
    });
    times.push(p.readyMs);
    await p.stop();
  }
  return { runs, p50: Math.round(percentile(times, 50)), max: Math.round(Math.max(...times)) };
}
