import type { components } from '../../lib/api/schema';

export type Account = components['schemas']['Account'];
