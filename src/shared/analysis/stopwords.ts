/**
 * Function words, never reported as repeated: every text uses them often. Small on purpose (pronouns,
 * articles, auxiliaries, conjunctions, common prepositions and adverbs); content words are what the writer
 * can vary.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each even ever few for from further had has ' +
    'have having he her here hers herself him himself his how i if in into is it its itself just less like ' +
    'may me might more most much must my myself no nor not now of off on once one only or other our ours ' +
    'ourselves out over own same shall she should so some such than that the their theirs them themselves ' +
    'then there these they this those though through to too under until up upon us very was we were what ' +
    'when where whether which while who whom whose why will with within without would yet you your yours ' +
    "yourself yourselves don't doesn't didn't isn't aren't wasn't weren't can't won't it's i'm i've you're " +
    "we're they're that's there's let's"
  ).split(' '),
);
