import en from '../locales/en.json';
import { i18next } from './i18n';

export type FactMode = 'festive' | 'northPole';

/** True festive facts, written for this project (the English catalog's; translated in the others). */
export const FESTIVE_FACTS: readonly string[] = en.facts.festive;

/** True North Pole facts, written for this project. */
export const NORTH_POLE_FACTS: readonly string[] = en.facts.northPole;

/** The facts in the language shown ('common' catalog, `facts.<mode>`). */
export function factsFor(mode: FactMode, lng = i18next.language): readonly string[] {
  const facts = i18next.t(`facts.${mode}`, { ns: 'common', lng, returnObjects: true });
  return Array.isArray(facts) && facts.length ? (facts as string[]) : mode === 'festive' ? FESTIVE_FACTS : NORTH_POLE_FACTS;
}
