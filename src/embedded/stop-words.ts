/**
 * Function words that say little about what a message is about. They are down-weighted, not
 * dropped: "how are you" is made of nothing else, and must still land somewhere.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being ' +
    'below between both but by can could did do does doing down during each few for from further ' +
    'had has have having he her here hers herself him himself his how i if in into is it its itself ' +
    'just me more most my myself no nor not now of off on once only or other our ours ourselves out ' +
    'over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which ' +
    'while who whom why will with would you your yours yourself yourselves also us may might must ' +
    'shall let lets please get got one would'
  ).split(' '),
);

/**
 * Words of conversation management rather than of a topic: a last message made of these and stop
 * words only ("yes, go ahead", "another one, shorter please") takes its topic from earlier turns.
 */
export const FOLLOW_UP_WORDS: ReadonlySet<string> = new Set(
  (
    'yes yeah yep no nope ok okay sure go ahead continue more another again shorter longer next ' +
    'example examples explain detail details thanks thank great cool fine right else one ones bit ' +
    'little make give show tell now first second last same different way like try well done want'
  ).split(' '),
);
