// Multi-turn conversations over the `topics` routes. Most end in a follow-up that names no topic
// ("yes, go ahead", "and in Python?"); some switch topic in the last message, which must win.
import { a, u } from './turns.mjs';

export const conversations = [
  [
    'code',
    [
      u('How do I reverse a string in JavaScript?'),
      a('Use str.split("").reverse().join("").'),
      u('and in Python?'),
    ],
  ],
  [
    'code',
    [
      u('My Flask app returns 500 on every POST request.'),
      a('Can you share the traceback?'),
      u('yes, here it is'),
    ],
  ],
  [
    'code',
    [
      u('Write a function that checks if a number is a palindrome.'),
      a('Here is one in Java: boolean isPalindrome(int n) { ... }'),
      u('can you make it shorter?'),
    ],
  ],
  [
    'code',
    [
      u('What does this regex do: ^\\d{3}-\\d{4}$'),
      a('It matches three digits, a dash and four digits.'),
      u('and if I want the dash to be optional?'),
    ],
  ],
  [
    'code',
    [
      u('I get a merge conflict when I pull from main.'),
      a('Open the conflicting files and pick the changes you want to keep.'),
      u('ok, then what?'),
    ],
  ],
  [
    'code',
    [
      u('Should I use Postgres or MongoDB for a small web shop?'),
      a('Postgres: relational data, transactions, mature tooling.'),
      u('why not the other one?'),
    ],
  ],
  [
    'code',
    [
      u('Add pagination to my API endpoint that lists users.'),
      a('I can add limit and offset parameters. Shall I write the code?'),
      u('yes please, go ahead'),
    ],
  ],
  ['math', [u('What is the derivative of x^3?'), a('3x^2.'), u('and the second one?')]],
  ['math', [u('Solve 3x + 4 = 19.'), a('x = 5.'), u('how did you get that?')]],
  ['math', [u("What's 17% of 2300?"), a('391.'), u('and 23%?')]],
  ['math', [u('Is 97 a prime number?'), a('Yes, 97 is prime.'), u('what about 91?')]],
  [
    'math',
    [
      u('Find the area of a circle with radius 3.'),
      a('About 28.27 square units.'),
      u('and the circumference?'),
    ],
  ],
  [
    'math',
    [
      u('Can you explain the Pythagorean theorem?'),
      a('In a right triangle a² + b² = c².'),
      u('give me an example'),
    ],
  ],
  [
    'creative',
    [
      u('Write me a haiku about autumn.'),
      a('Crimson leaves drifting / the old maple lets them go / wind carries the rest'),
      u('another one, but sadder'),
    ],
  ],
  [
    'creative',
    [
      u('Tell me a story about a fox who learns to fly.'),
      a('Once upon a time, a small red fox watched the geese...'),
      u('what happens next?'),
    ],
  ],
  [
    'creative',
    [
      u('I need a slogan for my bakery.'),
      a('"Fresh from our oven to your heart."'),
      u('more options please'),
    ],
  ],
  [
    'creative',
    [
      u('Write a limerick about a cat.'),
      a('There once was a cat from Peru...'),
      u('make it rhyme better'),
    ],
  ],
  [
    'creative',
    [
      u('Help me write song lyrics about leaving home.'),
      a('Verse one: packed my bags at dawn...'),
      u('now the bridge'),
    ],
  ],
  [
    'creative',
    [
      u('Create a villain for my comic book.'),
      a('Meet Doctor Hollow, a clockmaker who steals time.'),
      u('give him a weakness'),
    ],
  ],
  [
    'translation',
    [
      u("Translate 'where is the library' into Italian."),
      a("Dov'è la biblioteca?"),
      u('and in German?'),
    ],
  ],
  [
    'translation',
    [
      u('How do you say thank you in Japanese?'),
      a('Arigatou (ありがとう).'),
      u('and the polite form?'),
    ],
  ],
  [
    'translation',
    [
      u('Can you put this sentence into Spanish: I love the sea.'),
      a('Me encanta el mar.'),
      u('now French'),
    ],
  ],
  [
    'translation',
    [
      u('What does "Schadenfreude" mean?'),
      a('Pleasure taken in someone else’s misfortune.'),
      u('is there an English equivalent?'),
    ],
  ],
  [
    'translation',
    [u("Translate 'good luck' into Portuguese."), a('Boa sorte.'), u('how do I pronounce it?')],
  ],
  [
    'summarize',
    [
      u(
        'Summarize this: The city council voted to expand the park, add two playgrounds and close the road on weekends. Residents were split.',
      ),
      a(
        'The council approved a bigger park with playgrounds and weekend road closures; residents disagree.',
      ),
      u('shorter please'),
    ],
  ],
  [
    'summarize',
    [
      u('Give me the key points of the report I pasted.'),
      a('1. Revenue grew 8 %. 2. Costs rose. 3. Hiring is frozen.'),
      u('just one line'),
    ],
  ],
  [
    'summarize',
    [
      u('Can you recap this meeting transcript?'),
      a('The team agreed to ship on Friday and review bugs on Monday.'),
      u('and who is responsible for what?'),
    ],
  ],
  [
    'summarize',
    [
      u('TL;DR of the article below, please: ...'),
      a('Scientists found a new species of frog in Peru.'),
      u('a bit more detail'),
    ],
  ],
  [
    'summarize',
    [
      u('Condense these notes into bullet points.'),
      a('- budget approved\n- launch in May\n- hire two designers'),
      u('now turn them into one paragraph'),
    ],
  ],
  [
    'cooking',
    [
      u('I want to bake sourdough bread this weekend.'),
      a('Great! Do you have a starter, or shall I explain how to make one?'),
      u('yes, go ahead'),
    ],
  ],
  [
    'cooking',
    [
      u('How do I make pancakes?'),
      a('Mix flour, milk, eggs and a pinch of salt, then fry in butter.'),
      u('without eggs?'),
    ],
  ],
  [
    'cooking',
    [
      u('What can I cook with chicken and rice?'),
      a('Chicken fried rice, paella, or a rice bake.'),
      u('the first one, how?'),
    ],
  ],
  [
    'cooking',
    [u('How long do I roast potatoes?'), a('About 45 minutes at 200 °C.'), u('and sweet ones?')],
  ],
  [
    'cooking',
    [
      u('Give me a recipe for guacamole.'),
      a('Avocados, lime, onion, coriander, salt, chilli.'),
      u('how many people does that feed?'),
    ],
  ],
  [
    'health',
    [
      u('What is a good stretching routine for runners?'),
      a('Try calf, hamstring and hip flexor stretches, 30 seconds each.'),
      u('how often?'),
    ],
  ],
  [
    'health',
    [
      u('I have trouble sleeping lately.'),
      a('Do you drink coffee late in the day, or use screens in bed?'),
      u('yes, both'),
    ],
  ],
  [
    'health',
    [
      u('How much water should I drink when training?'),
      a('Roughly half a litre to a litre per hour of exercise.'),
      u('and in hot weather?'),
    ],
  ],
  [
    'health',
    [
      u('Is it safe to run with a cold?'),
      a('Light exercise is usually fine if symptoms are above the neck.'),
      u('what if I have a fever?'),
    ],
  ],
  [
    'general',
    [
      u('Who built the pyramids of Giza?'),
      a('Egyptian workers during the Old Kingdom, around 2600–2500 BC.'),
      u('how long did it take?'),
    ],
  ],
  ['general', [u('What is the capital of Canada?'), a('Ottawa.'), u('and of Australia?')]],
  [
    'general',
    [u('Recommend a movie for a rainy evening.'), a('How about "Amélie"?'), u('something scarier')],
  ],
  [
    'general',
    [
      u('Why do we have leap years?'),
      a('The year is about 365.24 days long, so a day is added every four years.'),
      u('who decided that?'),
    ],
  ],
  // The last message changes topic: it must win over the history.
  [
    'translation',
    [
      u('Write a poem about the sea.'),
      a('The sea, the endless sea...'),
      u('Now translate it into Spanish.'),
    ],
  ],
  [
    'code',
    [
      u('What is the capital of France?'),
      a('Paris.'),
      u('Write a Python script that downloads the Wikipedia page about Paris.'),
    ],
  ],
  [
    'math',
    [
      u('Give me a recipe for banana bread.'),
      a('Mash three bananas, mix with flour, sugar, egg and butter...'),
      u('If the recipe serves 6, how much of each ingredient for 15 people? Show the ratios.'),
    ],
  ],
  [
    'summarize',
    [
      u('How do I fix a flat bicycle tyre?'),
      a('Remove the wheel, take out the tube, find the hole, patch it, and reinflate.'),
      u('Summarize that in one sentence.'),
    ],
  ],
  [
    'health',
    [
      u('Tell me a joke.'),
      a('Why did the scarecrow win an award? He was outstanding in his field.'),
      u('Seriously though, my chest hurts when I climb stairs.'),
    ],
  ],
  [
    'cooking',
    [
      u('Translate "bon appétit" to English.'),
      a('It means "enjoy your meal".'),
      u('What should I cook for a dinner party of six?'),
    ],
  ],
];
