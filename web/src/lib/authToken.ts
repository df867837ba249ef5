/**
 * The gateway API reads the caller's Firebase ID token through this small registry, so
 * `app/api.ts` does not import the Firebase SDK and tests can plug in a fake.
 */
type TokenProvider = () => Promise<string | null>;

let provider: TokenProvider = async () => null;

export function setTokenProvider(next: TokenProvider): void {
  provider = next;
}

export async function getAuthToken(): Promise<string | null> {
  try {
    return await provider();
  } catch (err) {
    console.warn('could not read the ID token', err);
    return null;
  }
}
