import { spawn } from 'node:child_process';

/**
 * Opening the user's default browser on the printed URL, the way each system does it, never
 * where nobody could see one: in CI, or on a Linux/BSD box without a display. The opener runs
 * detached and unwaited; when it fails, the user still has the URL printed above.
 */

/** The command that opens `url` in the default browser, or why none should run. */
export function browserCommand(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): { command: string; args: string[] } | { skip: string } {
  if (env.CI && env.CI !== 'false' && env.CI !== '0') return { skip: 'CI is set' };
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // Not `cmd /c start`: cmd would read the URL's & and % itself.
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { skip: 'no display: DISPLAY and WAYLAND_DISPLAY are unset' };
  return { command: 'xdg-open', args: [url] };
}

/** Open `url` in the default browser unless {@link browserCommand} says not to; `say` gets one line when it does not happen. */
export function openBrowser(url: string, say: (line: string) => void): void {
  const how = browserCommand(url, process.env, process.platform);
  if ('skip' in how) {
    say(`not opening a browser (${how.skip}); open the URL above`);
    return;
  }
  const failed = (why: string) => say(`could not open a browser (${how.command}: ${why}); open the URL above`);
  try {
    const child = spawn(how.command, how.args, { detached: true, stdio: 'ignore' });
    child.once('error', (e) => failed(e.message));
    child.once('exit', (code) => {
      if (code) failed(`exit code ${code}`);
    });
    child.unref();
  } catch (e) {
    failed(e instanceof Error ? e.message : String(e));
  }
}
