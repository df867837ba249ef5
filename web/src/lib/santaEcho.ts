/** How long a Santa request made on this device counts as "ours" when its echo arrives. */
export const LOCAL_ECHO_MS = 15_000;
let lastLocalSanta = 0;

/**
 * The gift options screen calls this before POST /api/santa: it plays the overlay itself, so the
 * live stream's echo of the same request must not play it again.
 */
export function noteSantaRequestSentHere(now: number = Date.now()): void {
  lastLocalSanta = now;
}

export function sentHereRecently(now: number = Date.now()): boolean {
  return now - lastLocalSanta < LOCAL_ECHO_MS;
}
