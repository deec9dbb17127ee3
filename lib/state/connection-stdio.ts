import { describeExit, type StdioOutput } from '../client/stdio-proxy-transport';
import type { ConnectProblem } from './connection-errors';
import type { ServerOutputSlice } from './server-output-slice';

/**
 * A stdio connection hears its child's output and exit from the transport: every line goes to
 * the server output slice, and the exit ends the connection at once in a state that says so
 * ("the server process exited with code 7"), instead of the badge staying "Connected" until the
 * next call fails.
 */

/** The problem a connection shows when its server process has ended. */
function exitProblem(exit: Extract<StdioOutput, { type: 'exit' }>): ConnectProblem {
  return {
    cause: describeExit(exit),
    fix: 'Read what it wrote (its last stderr lines are below, all of its output in the Server output tab), then press Connect to start it again.',
    exited: true,
  };
}

/**
 * The transport's `onOutput` for connect number `epoch`: records each line, and calls `onExit`
 * with the exit's problem when the process ends.
 */
export function stdioOutputHandler(get: () => ServerOutputSlice, epoch: number, onExit: (problem: ConnectProblem) => void) {
  return (output: StdioOutput) => {
    get().serverOutput.push(epoch, output, output.type === 'exit' ? describeExit(output) : undefined);
    if (output.type === 'exit') onExit(exitProblem(output));
  };
}
