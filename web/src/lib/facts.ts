export type FactMode = 'festive' | 'northPole';

/** True festive facts, written for this project. */
export const FESTIVE_FACTS: readonly string[] = [
  '"Jingle Bells" was first published in 1857, under the title "One Horse Open Sleigh".',
  'In December 1965 the Gemini 6 astronauts played "Jingle Bells" on a harmonica and bells: the first song performed in space.',
  'Bing Crosby\'s "White Christmas" is the best-selling single of all time, with an estimated 50 million copies sold.',
  'The first commercial Christmas cards were commissioned by Sir Henry Cole in London in 1843.',
  'Rudolph the Red-Nosed Reindeer was created in 1939 by Robert L. May for a booklet given away by a department store.',
  'Every year since 1947 Norway has given London a Christmas tree for Trafalgar Square, as thanks for help during the Second World War.',
  'Christmas crackers were invented in the 1840s by Tom Smith, a London sweet maker.',
  'Poinsettias are named after Joel Roberts Poinsett, the first United States minister to Mexico, who brought the plant north in the 1820s.',
];

/** True North Pole facts, written for this project. */
export const NORTH_POLE_FACTS: readonly string[] = [
  'The North Pole is not on land: it sits on drifting sea ice in the middle of the Arctic Ocean.',
  'The ocean under the North Pole is more than 4,000 metres deep.',
  'At the North Pole the sun rises once and sets once a year, giving about six months of daylight and six months of night.',
  'Standing exactly at the North Pole, every direction you can face is south.',
  'The magnetic north pole is not at the North Pole, and it wanders: lately it has moved tens of kilometres a year towards Siberia.',
  "Reindeer eyes change colour with the seasons, from gold in summer to deep blue in winter, helping them see in the Arctic's dim light.",
  'Polar bears have black skin under their fur, and each hair of that fur is see-through, not white.',
  "Canada Post gave Santa his own postal code, H0H 0H0, and volunteers answer children's letters sent to it.",
];

export function factsFor(mode: FactMode): readonly string[] {
  return mode === 'festive' ? FESTIVE_FACTS : NORTH_POLE_FACTS;
}
