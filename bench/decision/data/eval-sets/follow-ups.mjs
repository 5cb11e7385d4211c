// Multi-turn conversations over the assistant6 and shop-desk routes whose last message alone is
// ambiguous ("yes please", "what about the other one?"), plus a few whose last message switches
// topic, which must win.
import { a, u } from './turns.mjs';

export const assistantFollowUps = [
  [
    'code',
    [
      u('How do I read a CSV file in Python?'),
      a('Use the csv module or pandas.read_csv.'),
      u('show me both'),
    ],
  ],
  [
    'code',
    [
      u('My Spring Boot app fails to start with a bean creation error.'),
      a('Which bean is named in the error?'),
      u('the DataSource one'),
    ],
  ],
  [
    'code',
    [
      u('Write a function to flatten a nested array in JavaScript.'),
      a('Here is a recursive version using reduce.'),
      u('now without recursion'),
    ],
  ],
  [
    'code',
    [
      u('What is a memory leak?'),
      a('Memory a program allocates and never releases.'),
      u('how do I find one?'),
    ],
  ],
  [
    'code',
    [
      u('Write a bash script that backs up my home folder.'),
      a('Here is a script using rsync.'),
      u('and schedule it every night'),
    ],
  ],
  ['math', [u('Solve x^2 + 4x - 5 = 0.'), a('x = 1 or x = -5.'), u('how did you get that?')]],
  [
    'math',
    [
      u('What is the probability of drawing an ace from a deck?'),
      a('4 in 52, about 7.7%.'),
      u('and two in a row?'),
    ],
  ],
  ['math', [u('Differentiate e^(3x).'), a('3e^(3x).'), u('now integrate it')]],
  ['math', [u('What is 15% of 320?'), a('48.'), u('and 35%?')]],
  [
    'math',
    [
      u('Explain the Pythagorean theorem.'),
      a('In a right triangle, a² + b² = c².'),
      u('give me a proof'),
    ],
  ],
  [
    'creative',
    [u('Write a poem about the rain.'), a('Soft drums on the window...'), u('make it sadder')],
  ],
  [
    'creative',
    [
      u('Tell me a story about a dragon who is afraid of fire.'),
      a('Once upon a time, Ember the dragon...'),
      u('what happens next?'),
    ],
  ],
  [
    'creative',
    [
      u('Write a limerick about a programmer.'),
      a('There once was a coder named Lee...'),
      u('another one please'),
    ],
  ],
  [
    'creative',
    [
      u('Give me a name for my fantasy kingdom.'),
      a('How about Eldermere?'),
      u('five more like that'),
    ],
  ],
  [
    'creative',
    [u('Write a haiku about winter.'), a('Silent snow settles...'), u('now one about summer')],
  ],
  [
    'translate',
    [u('Translate "see you soon" into Spanish.'), a('"Hasta pronto."'), u('and in Italian?')],
  ],
  [
    'translate',
    [u('How do you say "I love you" in French?'), a('"Je t\'aime."'), u('what about Japanese')],
  ],
  [
    'translate',
    [
      u('Translate this sign into German: no parking.'),
      a('"Parken verboten."'),
      u('is there a more polite way?'),
    ],
  ],
  [
    'translate',
    [
      u('Put "thank you for your order" into Portuguese.'),
      a('"Obrigado pelo seu pedido."'),
      u('and for Brazil specifically?'),
    ],
  ],
  [
    'translate',
    [u('What does "bon appétit" mean?'), a('"Enjoy your meal."'), u('how do I say it in Korean?')],
  ],
  [
    'summarize',
    [
      u('Summarize this article about climate policy: ...'),
      a('The article argues that carbon taxes...'),
      u('shorter'),
    ],
  ],
  [
    'summarize',
    [
      u('Give me the key points of these meeting notes: ...'),
      a('1. Budget approved. 2. Launch moved to May.'),
      u('just the decisions please'),
    ],
  ],
  [
    'summarize',
    [
      u('TL;DR of this research paper, please: ...'),
      a('It shows that sleep improves memory.'),
      u('in one line'),
    ],
  ],
  [
    'summarize',
    [
      u('Condense this report into bullet points: ...'),
      a('- Sales up 5%\n- Costs flat'),
      u('and add a one-sentence intro'),
    ],
  ],
  [
    'general',
    [
      u('What is a good place to visit in Portugal?'),
      a('Lisbon, Porto and the Algarve are popular.'),
      u('which one for a week in spring?'),
    ],
  ],
  [
    'general',
    [
      u('How do I keep basil alive indoors?'),
      a('Plenty of light and water when the soil is dry.'),
      u('how often exactly?'),
    ],
  ],
  ['general', [u('Hi! Hope you are well.'), a('Hello! How can I help?'), u('just saying hello')]],
  [
    'general',
    [
      u('Why do cats purr?'),
      a('Often when content, sometimes to self-soothe.'),
      u('interesting, tell me more'),
    ],
  ],
  [
    'translate',
    [
      u('Write a poem about the ocean.'),
      a('Blue and endless...'),
      u('now translate it into French'),
    ],
  ],
  [
    'code',
    [
      u('Summarize what this function does: def f(x): return x[::-1]'),
      a('It reverses a sequence.'),
      u('rewrite it in Java'),
    ],
  ],
  [
    'math',
    [
      u('Tell me a joke about numbers.'),
      a('Why was six afraid of seven? Because 7 8 9.'),
      u('ok, now what is 7 times 8 times 9?'),
    ],
  ],
  [
    'summarize',
    [
      u('Translate this paragraph into English: ...'),
      a('Here is the translation: ...'),
      u('now give me a two-line summary of it'),
    ],
  ],
];

export const shopFollowUps = [
  [
    'shipping',
    [
      u('Where is my order 8812?'),
      a('It left our warehouse yesterday.'),
      u('when will it get here?'),
    ],
  ],
  [
    'shipping',
    [u('Do you deliver to Spain?'), a('Yes, in 3 to 5 working days.'), u('how much does it cost?')],
  ],
  [
    'returns',
    [
      u('The jumper I bought is too big.'),
      a('I am sorry to hear that. Would you like a different size?'),
      u('no, I want my money back'),
    ],
  ],
  [
    'returns',
    [
      u('I received a cracked phone case.'),
      a('Sorry about that! We can replace it or refund you.'),
      u('replace it please'),
    ],
  ],
  [
    'billing',
    [
      u('I was charged twice for my order.'),
      a('I can see two payments. Let me look into it.'),
      u('how long until I get one back?'),
    ],
  ],
  [
    'billing',
    [u('Can I pay in instalments?'), a('Yes, with Klarna at checkout.'), u('is there interest?')],
  ],
  [
    'technical-support',
    [
      u('My headphones will not connect to my laptop.'),
      a('Have you tried removing and re-pairing them?'),
      u('yes, still nothing'),
    ],
  ],
  [
    'technical-support',
    [
      u('The smart plug keeps going offline.'),
      a('Is it close to the router?'),
      u('about ten metres away'),
    ],
  ],
  [
    'account-security',
    [u('I cannot log in.'), a('Shall I send a password reset link?'), u('yes please')],
  ],
  [
    'account-security',
    [
      u('I got a login alert from another country.'),
      a('Did you sign in from there?'),
      u('no, never'),
    ],
  ],
  [
    'sales',
    [u('Is the grey sofa in stock?'), a('Yes, we have three left.'), u('and the green one?')],
  ],
  [
    'sales',
    [
      u('Which laptop is good for video editing?'),
      a('The 16-inch model with 32 GB of RAM.'),
      u('anything cheaper?'),
    ],
  ],
  [
    'feedback',
    [
      u('I waited an hour on the phone today.'),
      a('I am sorry about the wait.'),
      u('it is not good enough, I want this passed on to a manager'),
    ],
  ],
  [
    'feedback',
    [
      u('Your new app is great.'),
      a('Thank you, glad you like it!'),
      u('the search is so much faster now, well done'),
    ],
  ],
  [
    'general',
    [
      u('Hello, is anyone around?'),
      a('Hi! How can I help today?'),
      u('I just have a quick question'),
    ],
  ],
  ['general', [u('Where are you based?'), a('Our head office is in Bristol.'), u('can I visit?')]],
  [
    'returns',
    [
      u('My parcel arrived today.'),
      a('Great! Is everything okay?'),
      u('no, it is the wrong item and I want to send it back'),
    ],
  ],
  [
    'billing',
    [
      u('My order has shipped.'),
      a('Yes, it should arrive on Tuesday.'),
      u('but why was I charged for express delivery when I chose standard?'),
    ],
  ],
];
