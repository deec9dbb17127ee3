import type { Command } from 'commander';
import { ownWords } from './client-args';
import { UsageError } from './errors';

/**
 * The `<taskId>` argument of `task get|update|cancel|result` and `tasks <action>`. Task ids are
 * opaque (other servers' as much as ours), so one may begin with "-", and commander refused it as
 * an unknown option; `--` cannot shield it, since that word starts a stdio server's command. So
 * these commands let unknown words through, and here a single-dash word longer than two
 * characters is the id, while `--anything` or `-x` is still the unknown option commander names.
 * `stdio`: the command may take a stdio server after `--` (those words are not checked here).
 */
export function taskIdArgument(cmd: Command, stdio: boolean): Command {
  return cmd
    .argument('<taskId>', 'the task id (one that begins with "-" is taken as given)')
    .allowUnknownOption()
    .allowExcessArguments(true)
    .hook('preAction', (_program, action) => {
      const words = stdio ? ownWords(action.args) : action.args;
      const stray = words.find((w) => w.startsWith('-') && (w.startsWith('--') || w.length === 2));
      if (stray !== undefined) {
        // commander's own refusal (exit 2, with its "Did you mean" hint), which allowUnknownOption silenced.
        action.allowUnknownOption(false);
        (action as unknown as { unknownOption(flag: string): void }).unknownOption(stray);
      }
      if (words.length > 1) throw new UsageError(`too many arguments for '${action.name()}': "${words[1]}"`);
    });
}
