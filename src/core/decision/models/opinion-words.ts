/**
 * Words that judge rather than ask: praise, complaints, suggestions ("kudos to the driver", "the
 * checkout is a nightmare", "five stars"). An averaged word vector keeps what a message is about
 * (the delivery, the app) and loses that it is an opinion, which is what tells a feedback route
 * from the route of its subject; their share is one more feature (decision-features.ts), whose
 * weight each question's classifier learns from its options' texts.
 */
export const OPINION_WORDS: ReadonlySet<string> = new Set(
  (
    'love loved loving lovely hate hated awful terrible horrible great fantastic amazing awesome ' +
    'excellent brilliant superb wonderful disappointed disappointing disappointment frustrating ' +
    'frustrated annoying annoyed angry furious unacceptable ridiculous rude unfair useless ' +
    'impressed impressive kudos thanks thank grateful appreciate appreciated praise compliment ' +
    'complaint complain complaining complained worst best poor bad nightmare pathetic shocking ' +
    'disgusting delighted happy unhappy satisfied dissatisfied pleased displeased stars star review ' +
    'suggestion suggest suggestions feedback recommend honestly seriously fed joke lousy mediocre ' +
    'slow rubbish shame shout helpful unhelpful friendly unfriendly smooth painless hassle ' +
    'pleasant outstanding perfect disaster'
  ).split(' '),
);

/** Opinion words at which a text counts as wholly an opinion. */
export const OPINION_SATURATION = 2;
