import { createInterface } from 'node:readline/promises';

// Questions on the process's terminal (io.ts hands these to commands).

/** Asks one question on the terminal (on stderr, so that stdout stays the command's output). */
export async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/** Asks for a password without echoing it. */
export function askHidden(question: string): Promise<string> {
  const { stdin, stderr } = process;
  stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish(() => resolve(typed));
        if (char === '\u0003') return finish(() => reject(new Error('interrupted')));
        typed = char === '\u007f' ? typed.slice(0, -1) : typed + char;
      }
    };
    const finish = (settle: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
      settle();
    };
    stdin.on('data', onData);
  });
}
