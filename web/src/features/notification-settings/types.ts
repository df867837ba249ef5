import type { components } from '../../lib/api/schema';

export type NotificationSettings = components['schemas']['NotificationSettings'];
export type NotificationPreference = components['schemas']['NotificationPreference'];
export type NotificationKind = components['schemas']['NotificationKind'];
export type NotificationChannel = NotificationPreference['channel'];
export type Unsubscribed = components['schemas']['Unsubscribed'];
export type NotificationLanguage = components['schemas']['NotificationLanguage'];
