/// <reference types="node" />
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// src/lib/api/schema.ts is generated from api/openapi.yaml (`npm run gen:api`). When the API
// changes and the types are not regenerated, this fails and says how to fix it. The arguments are
// package.json's: a field with a default is optional in what the client sends (`--default-non-nullable
// false`); in answers the spec's `required` lists say what is always there.
describe('generated API types', { timeout: 120_000 }, () => {
  it('are up to date with api/openapi.yaml', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'santa-api-')), 'schema.ts');
    execFileSync(join(process.cwd(), 'node_modules/.bin/openapi-typescript'), ['../api/openapi.yaml', '--default-non-nullable', 'false', '-o', out], {
      cwd: process.cwd(),
      stdio: 'pipe',
    });
    const committed = readFileSync(join(process.cwd(), 'src/lib/api/schema.ts'), 'utf8');
    expect(committed === readFileSync(out, 'utf8'), 'src/lib/api/schema.ts is stale: run `npm run gen:api` in web/').toBe(true);
  });
});
