import { BASE_URL } from './env';

interface StackAuth {
  emulator: string;
  projectId: string;
}

let stack: Promise<StackAuth> | undefined;

/** The Auth emulator and project the app under test uses, as its gateway tells the browser. */
export function stackAuth(): Promise<StackAuth> {
  stack ??= fetch(new URL('/api/config', BASE_URL))
    .then((r) => r.json() as Promise<{ firebase: { projectId: string }; authEmulatorUrl?: string }>)
    .then((config) => ({
      emulator: process.env.E2E_AUTH_EMULATOR || config.authEmulatorUrl || 'http://127.0.0.1:9099',
      projectId: config.firebase.projectId,
    }));
  return stack;
}

/** Creates an email/password account straight in the Auth emulator (its REST API). */
export async function createEmulatorUser(email: string, password: string, displayName?: string): Promise<void> {
  const { emulator } = await stackAuth();
  const res = await fetch(`${emulator}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=e2e`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, displayName, returnSecureToken: true }),
  });
  if (!res.ok) throw new Error(`creating ${email} in the Auth emulator: ${res.status} ${await res.text()}`);
}

interface OobCode {
  email: string;
  requestType: string;
  oobCode: string;
}

/** The out-of-band codes (password reset emails) the emulator has "sent". */
export async function oobCodes(): Promise<OobCode[]> {
  const { emulator, projectId } = await stackAuth();
  const res = await fetch(`${emulator}/emulator/v1/projects/${projectId}/oobCodes`);
  if (!res.ok) throw new Error(`reading the emulator's oob codes: ${res.status}`);
  const body = (await res.json()) as { oobCodes?: OobCode[] };
  return body.oobCodes ?? [];
}
