/// <reference types="node" />
import { ESLint } from 'eslint';

// Runs the project's real ESLint config on small sources placed (virtually) in the tree, so the
// import boundaries are proven to fail a build, not just written down.
// Vitest runs from web/, where eslint.config.js is.
const eslint = new ESLint({ cwd: process.cwd() });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'import/no-restricted-paths').map((m) => m.message);
}

// The first lint loads typescript-eslint and the plugins: slow on a busy machine.
describe('import boundaries (make lint)', { timeout: 60_000 }, () => {
  it('fails a feature that imports another feature', async () => {
    const errors = await boundaryErrors(
      'src/features/wishlist/crossFeature.ts',
      "import { AccountCard } from '../home/components/AccountCard';\nexport const x = AccountCard;\n",
    );
    expect(errors).toEqual([expect.stringContaining('A feature must not import another feature')]);
  });

  it('fails shared components and lib code that import a feature or the app', async () => {
    const fromComponents = await boundaryErrors(
      'src/components/Bad.ts',
      "import { useWishlistCount } from '../features/wishlist/hooks/useWishlistCount';\nexport const x = useWishlistCount;\n",
    );
    expect(fromComponents).toEqual([expect.stringContaining('must not import features or the app')]);
    const fromLib = await boundaryErrors('src/lib/bad.ts', "import { api } from '../app/api';\nexport const x = api;\n");
    expect(fromLib).toEqual([expect.stringContaining('must not import features or the app')]);
  });

  it('fails a feature that reaches into app/ beyond hooks, store, api and shell notices', async () => {
    const errors = await boundaryErrors(
      'src/features/live/bad.ts',
      "import { Shell } from '../../app/shell/Shell';\nexport const x = Shell;\n",
    );
    expect(errors).toEqual([expect.stringContaining('Features take from app/ only')]);
  });

  it('lets a feature use its own files, shared code and the allowed app modules', async () => {
    const errors = await boundaryErrors(
      'src/features/live/fine.ts',
      [
        "import { api } from '../../app/api';",
        "import { useAppDispatch } from '../../app/hooks';",
        "import { useToast } from '../../app/shell/notices';",
        "import { getAuthToken } from '../../lib/authToken';",
        "import { SseParser } from './sse';",
        'export const x = [api, useAppDispatch, useToast, getAuthToken, SseParser];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });
});
