/**
 * Classes of words whose presence says what kind of request a message is, which an averaged word
 * vector blurs into the message's subject. Each class is one feature (decision-features.ts): the
 * share of a text that belongs to it, whose weight each question's classifier learns from its
 * options' texts (zero where the class separates nothing).
 */
export interface WordClass {
  readonly name: 'opinion' | 'language';
  readonly words: ReadonlySet<string>;
  /** Words of the class at which a text counts as wholly of it. */
  readonly saturation: number;
  /**
   * Words of the class that are more often something else ("nail polish", "polish my essay"):
   * they count only right after one of `cues` ("into Polish", "in polish").
   */
  readonly ambiguous?: ReadonlySet<string>;
  readonly cues?: ReadonlySet<string>;
}

const words = (list: string): ReadonlySet<string> => new Set(list.split(' '));

export const WORD_CLASSES: readonly WordClass[] = [
  {
    // Praise, complaints, suggestions ("kudos to the driver", "the checkout is a nightmare", "five
    // stars"): the vector keeps the subject (the delivery, the app) and loses that the message
    // judges it, which is what tells a feedback route from its subject's.
    name: 'opinion',
    words: words(
      'love loved loving lovely hate hated awful terrible horrible great fantastic amazing awesome ' +
        'excellent brilliant superb wonderful disappointed disappointing disappointment frustrating ' +
        'frustrated annoying annoyed angry furious unacceptable ridiculous rude unfair useless ' +
        'impressed impressive kudos thanks thank grateful appreciate appreciated praise compliment ' +
        'complaint complain complaining complained worst best poor bad nightmare pathetic shocking ' +
        'disgusting delighted happy unhappy satisfied dissatisfied pleased displeased stars star ' +
        'review suggestion suggest suggestions feedback recommend honestly seriously fed joke lousy ' +
        'mediocre slow rubbish shame shout helpful unhelpful friendly unfriendly smooth painless ' +
        'hassle pleasant outstanding perfect disaster',
    ),
    saturation: 2,
  },
  {
    // Languages: a translation names one ("in Korean", "into Portuguese"); a request to reword a
    // text shorter or plainer, which the vectors place next to translation, does not.
    name: 'language',
    words: words(
      'english french spanish german italian portuguese dutch russian chinese mandarin cantonese ' +
        'japanese korean arabic hindi urdu bengali turkish greek polish swedish norwegian danish ' +
        'finnish hungarian czech romanian ukrainian hebrew persian farsi thai vietnamese indonesian ' +
        'malay tagalog filipino swahili latin irish welsh catalan basque croatian serbian bulgarian ' +
        'slovak slovenian estonian latvian lithuanian icelandic punjabi tamil telugu marathi ' +
        'gujarati afrikaans zulu esperanto',
    ),
    saturation: 1,
    ambiguous: words('polish'),
    cues: words('in into to from speak speaks speaking learn learning'),
  },
];
