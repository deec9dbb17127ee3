import type { SubscriptionFilter, Task } from '../protocol';
import { createConnection } from './connection';
import type { Connection, ConnectionOptions } from './connection-types';
import { openListen, type ListenHandle, type ListenHandlers, type ListenOptions } from './listen';
import { callWithInput, type CallWithInputOptions, type InputAnswerer, type CallWithInputOutcome } from './mrtr';
import { createTaskApi, type TaskApi, type ObservedTask } from './task-api';
import { followTask, type FollowOptions, type TaskFollower } from './task-follower';
import { createToolApi, type ToolApi } from './tools';

/**
 * The inspector's client, one object per connection:
 *
 *   const session = createClientSession({ transport, era: 'auto', capabilities: { elicitation: {} } });
 *   await session.discover();                         // era detected on the first request
 *   const { tools } = await session.listTools();      // invalid x-mcp-header tools dropped
 *   const out = await session.callTool('generate_report', { size: 'small' }, { task: true });
 *   if (out.type === 'task') await session.followTask(out.task, { answer }).done;
 *
 * Every method returns what happened as a value (`RequestOutcome`): results, JSON-RPC errors,
 * invalid responses and transport failures alike. Nothing is thrown for the wire.
 *
 * lib/client is browser-safe: Node-only pieces live in lib/cli and lib/adapters, never here.
 */

type ClientSessionOptions = ConnectionOptions;

/** A client session: the connection core with the tool and task operations on top. */
export interface ClientSession extends ToolApi, TaskApi {
  readonly connection: Connection;
  readonly era: Connection['era'];
  readonly protocolVersion: string;
  readonly server: Connection['server'];
  connect: Connection['connect'];
  request: Connection['request'];
  /** Close for good (see Connection.close): every request, poll, listen and 2025-11-25 standalone stream stops. */
  close: Connection['close'];
  /** tools/call with the MRTR loop: answer input requests until the call completes. */
  callWithInput(name: string, args: Record<string, unknown>, answer: InputAnswerer, options?: CallWithInputOptions): Promise<CallWithInputOutcome>;
  /** Follow a task (from a `task` outcome or a snapshot) to its end. */
  followTask(task: Task | ObservedTask, options?: FollowOptions): TaskFollower;
  /** subscriptions/listen with the reconnect plan. */
  listen(filter: SubscriptionFilter, handlers?: ListenHandlers, options?: ListenOptions): ListenHandle;
}

/** Create a client session over a transport. */
export function createClientSession(options: ClientSessionOptions): ClientSession {
  const connection = createConnection(options);
  // stdio: a line that answers nothing is said at once (the request it may have been meant for still waits: nothing says it was).
  options.transport.onStray?.((line) => connection.warn(`the server wrote a line that answers no request (${line.problem}): ${line.raw.slice(0, 200)}`));
  const tools = createToolApi(connection);
  const tasks = createTaskApi(connection);
  return {
    connection,
    get era() {
      return connection.era;
    },
    get protocolVersion() {
      return connection.protocolVersion;
    },
    get server() {
      return connection.server;
    },
    connect: connection.connect,
    request: connection.request,
    close: connection.close,
    ...tools,
    ...tasks,
    callWithInput: (name, args, answer, o) => callWithInput(tools, connection.clock, name, args, answer, o),
    followTask: (task, o) => followTask(connection, tasks, task as ObservedTask, o),
    listen: (filter, handlers, o) => openListen(connection, filter, handlers, o),
  };
}
