// Hand-written by the fifth writer: multi-turn chats from casual phone-assistant users.
// The label is the route that should handle the LAST user message, read in context.

import { fifthAssistant6 } from './assistant6.mjs';

import { a, u } from '../turns.mjs';

export const conversationsFifth = {
  name: 'fifth-writer-conversations',
  about:
    'Short casual multi-turn chats with a phone assistant where the last user message, often a bare follow-up or a sudden topic change, must be routed to one of the six assistant skills.',
  routes: fifthAssistant6.routes,
  conversations: [
    // ---------- coding ----------
    [
      'coding',
      [
        u(`write a python function that checks if a word is a palindrome`),
        a(`Sure:\n\ndef is_palindrome(word):\n    w = word.lower()\n    return w == w[::-1]`),
        u(`now make it ignore spaces too`),
      ],
    ],
    [
      'coding',
      [
        u(`how do i get the current date in javascript`),
        a(
          `Use new Date(). For example: const today = new Date(); console.log(today.toDateString());`,
        ),
        u(`ok and only the year?`),
        a(`new Date().getFullYear() gives you the year as a number, e.g. 2024.`),
        u(`what about in python`),
      ],
    ],
    [
      'coding',
      [
        u(`my code gives TypeError: can only concatenate str (not "int") to str`),
        a(
          `You're adding a number to a string. Convert the number first: "Age: " + str(age), or use an f-string: f"Age: {age}".`,
        ),
        u(`the second one pls, show me the full line`),
      ],
    ],
    [
      'coding',
      [
        u(`can you write a sql query to get all users who signed up in 2023`),
        a(`SELECT * FROM users WHERE signup_date >= '2023-01-01' AND signup_date < '2024-01-01';`),
        u(`thx. it works`),
        a(`Great! Let me know if you need anything else.`),
        u(`now count them per month`),
      ],
    ],
    [
      'coding',
      [
        u(`whats the formula for compound interest`),
        a(
          `A = P(1 + r/n)^(nt), where P is the starting amount, r the yearly rate, n how many times it's compounded per year and t the number of years.`,
        ),
        u(`can u put that in a js function`),
      ],
    ],
    [
      'coding',
      [
        u(`explain what this does: [x*2 for x in nums if x > 0]`),
        a(
          `It's a list comprehension. It goes through nums, keeps only the positive numbers, and doubles each one, giving you a new list.`,
        ),
        u(`how would it look as a normal loop`),
      ],
    ],
    [
      'coding',
      [
        u(`i made a snake game in pygame but the snake goes through walls`),
        a(
          `You need to check the head position every frame. Something like: if x < 0 or x >= WIDTH or y < 0 or y >= HEIGHT: game_over = True`,
        ),
        u(`where do i put that`),
        a(
          `Inside your main game loop, right after you update the snake's position and before you draw the screen.`,
        ),
        u(`still doesnt work, it just freezes now`),
        a(
          `That usually happens when the loop stops handling events after game_over. Keep calling pygame.event.get() every frame and show a "Game Over" screen instead of just stopping the updates.`,
        ),
        u(`ok how do i show the game over text then`),
      ],
    ],
    [
      'coding',
      [
        u(`whats the difference between == and === in js`),
        a(
          `== compares after converting types (so '5' == 5 is true), === compares value and type without converting ('5' === 5 is false).`,
        ),
        u(`which one should i use`),
      ],
    ],
    [
      'coding',
      [
        u(`recommend me a good sci-fi book`),
        a(`Try "Project Hail Mary" by Andy Weir. It's funny, smart and very hard to put down.`),
        u(`ooh sounds fun, added it to my list`),
        a(`Enjoy! It's a great one for a weekend.`),
        u(`btw how do i make a python script run every day at 8am on windows`),
      ],
    ],
    [
      'coding',
      [
        u(`I'm learning C and I don't get pointers. What is int *p actually?`),
        a(
          `int *p declares p as a pointer to an int: it stores the memory address of an int, not the int itself. Writing *p then reads or changes the value at that address.`,
        ),
        u(`So if I do p = &x and then *p = 5, does x change to 5 too?`),
      ],
    ],

    // ---------- math ----------
    ['math', [u(`what's 3/5 as a percent`), a(`3/5 = 0.6, so it's 60%.`), u(`and 7/8?`)]],
    [
      'math',
      [
        u(`solve x^2 - 5x + 6 = 0`),
        a(`Factor it: (x - 2)(x - 3) = 0, so x = 2 or x = 3.`),
        u(`how did you know to use 2 and 3`),
        a(
          `You look for two numbers that multiply to 6 and add up to -5. That's -2 and -3, which gives the factors (x - 2)(x - 3).`,
        ),
        u(`ok try this one then: x^2 + x - 12`),
      ],
    ],
    [
      'math',
      [
        u(`if i roll a dice, chance of getting a 6?`),
        a(`1 in 6, so about 16.7%.`),
        u(`what if i roll two`),
      ],
    ],
    [
      'math',
      [
        u(`area of a circle with radius 7`),
        a(`A = πr² = π × 49 ≈ 153.94 square units.`),
        u(`thanks!! and the circumference`),
        a(`C = 2πr = 14π ≈ 43.98 units.`),
        u(`now with diameter 7 instead`),
      ],
    ],
    [
      'math',
      [
        u(`how many people live in canada`),
        a(`About 40 million people, as of 2023.`),
        u(`and if it grows 1% every year, how many in 10 years?`),
      ],
    ],
    [
      'math',
      [
        u(`my teacher says the derivative of e^x is e^x, is that right?`),
        a(
          `Yes! e^x is special because its derivative is itself. That's one reason it shows up everywhere in calculus.`,
        ),
        u(`what about e^2x`),
      ],
    ],
    [
      'math',
      [
        u(`I got 72, 85 and 90 on my tests. What's my average?`),
        a(`(72 + 85 + 90) / 3 = 247 / 3 ≈ 82.3.`),
        u(`nice. the final counts double tho`),
        a(
          `Got it. Do you already have your final score, or do you want to know what you need on it?`,
        ),
        u(`what do i need for a 85 overall`),
      ],
    ],
    [
      'math',
      [
        u(`write me a short poem about autumn leaves`),
        a(
          `Golden whispers on the breeze,\nletting go of tired trees,\nthey dance and drift and softly fall,\nthe quiet ending of it all.`,
        ),
        u(`aww i like it`),
        a(`Glad you like it! Want one for another season?`),
        u(`no thanks. different question, how do i convert 68 fahrenheit to celsius`),
      ],
    ],
    [
      'math',
      [
        u(
          `can you help with a probability question? a bag has 4 red and 6 blue balls, I take 2 without putting back`,
        ),
        a(`Sure! What do you want to find: both red, both blue, or one of each?`),
        u(`the chance that both are red please`),
      ],
    ],
    [
      'math',
      [
        u(`how do you find the hypotenuse`),
        a(`Use Pythagoras: c = √(a² + b²), where a and b are the two shorter sides.`),
        u(`so with sides 6 and 8 its 10?`),
        a(`Exactly! √(36 + 64) = √100 = 10.`),
        u(
          `cool. and if I know the hypotenuse is 13 and one side is 5, how do I get the other side?`,
        ),
      ],
    ],

    // ---------- writing ----------
    [
      'writing',
      [
        u(`write a haiku about the ocean`),
        a(`Waves fold into foam,\nthe moon pulls the water home,\nsalt on every stone.`),
        u(`again but sadder`),
      ],
    ],
    [
      'writing',
      [
        u(`give me a joke about teachers`),
        a(`Why did the teacher wear sunglasses? Because her students were so bright!`),
        u(`lol another one`),
        a(
          `Why did the math teacher break up with the calculator? She felt like she was being used.`,
        ),
        u(`one about nurses now`),
      ],
    ],
    [
      'writing',
      [
        u(`i need a name for my gaming team, we play valorant`),
        a(
          `Some ideas: Spike Rush Kings, Headshot Hive, Radiant Rebels, Clutch Collective, Ace Factory.`,
        ),
        u(`more aggressive sounding`),
      ],
    ],
    [
      'writing',
      [
        u(`write a short story about a robot who wants to be a chef`),
        a(
          `Unit B-7 was built to weld car doors, but every night it watched cooking shows on the factory's dusty TV. One evening it borrowed a frying pan, cracked an egg with surgical precision and burned it completely. It tried again. And again. By sunrise, the night guard found a perfect omelette waiting for him, with a note: "Tomorrow: soufflé."`,
        ),
        u(`cute! can you make the ending funnier`),
        a(
          `Sure: ...By sunrise, the night guard found a perfect omelette waiting for him, with a note: "Rate my food 5 stars or I weld your locker shut."`,
        ),
        u(`hahaha ok now in rhymes`),
      ],
    ],
    [
      'writing',
      [
        u(`what's the tallest building in the world`),
        a(`The Burj Khalifa in Dubai, at about 828 meters.`),
        u(`write a little poem about it for my kid's school project`),
      ],
    ],
    [
      'writing',
      [
        u(`slogan for a lemonade stand?`),
        a(`"Squeeze the day!"`),
        u(`lol good, few more like that`),
      ],
    ],
    [
      'writing',
      [
        u(`can you write a birthday poem for my mom`),
        a(`Of course! Anything I should include, like her hobbies, her age or a funny memory?`),
        u(`she loves gardening and she's turning 50`),
        a(
          `Fifty springs of sun and seed,\nyou gave us all that we could need;\nyour roses bloom, your tulips grow,\nbut we're your favorite garden, you know.`,
        ),
        u(`shorter pls, its for a card`),
      ],
    ],
    [
      'writing',
      [
        u(`how do you say 'good luck' in german`),
        a(`"Viel Glück!"`),
        u(`and 'see you soon'?`),
        a(`"Bis bald!"`),
        u(
          `ok thanks. also can u write a funny goodbye card for my coworker Jens who's moving to Berlin`,
        ),
      ],
    ],
    [
      'writing',
      [
        u(
          `I'm writing a fantasy story and need a villain. Can you give me a villain with a tragic backstory?`,
        ),
        a(
          `Meet Seraphine Vale, a healer who couldn't save her village from a plague. Blaming the gods, she now steals life from others to make herself immortal, convinced no one should ever die the way her people did.`,
        ),
        u(`Love her. Can you write the scene where the hero first meets her?`),
      ],
    ],
    [
      'writing',
      [
        u(`help me write lyrics for a song about my dog`),
        a(
          `Sure! What's your dog like, and what style do you want: happy pop, country, something silly?`,
        ),
        u(`his name is biscuit hes a lazy beagle. silly country style`),
        a(
          `Verse 1:\nWell Biscuit don't chase rabbits, and he don't chase no cars,\nhe just snores on the porch underneath the stars...`,
        ),
        u(`haha yes keep going, add a chorus`),
      ],
    ],

    // ---------- translation ----------
    [
      'translation',
      [
        u(`how do you say 'thank you very much' in italian`),
        a(`"Grazie mille!"`),
        u(`what about in korean`),
      ],
    ],
    [
      'translation',
      [
        u(`translate to spanish: I will be late, the bus broke down`),
        a(`"Voy a llegar tarde, el autobús se averió."`),
        u(`more casual, its for my friend`),
        a(
          `"Voy tarde, se descompuso el camión." (Mexico) or "Llego tarde, que se ha roto el autobús." (Spain)`,
        ),
        u(`the mexico one. and now in portuguese`),
      ],
    ],
    [
      'translation',
      [
        u(`write a 4 line poem about friendship`),
        a(
          `A friend is a lamp when the night is long,\na laugh in the quiet, a voice in the song;\nthrough storms and through sunshine, through near and through far,\nthey remind you exactly of who you are.`,
        ),
        u(`now in french pls`),
      ],
    ],
    [
      'translation',
      [
        u(`what does 'arigatou gozaimasu' mean`),
        a(`It's Japanese for "thank you very much", the polite form.`),
        u(`and the casual one?`),
      ],
    ],
    [
      'translation',
      [
        u(`can you translate this to english: 'Ich komme morgen um acht Uhr an.'`),
        a(`"I'm arriving tomorrow at eight o'clock."`),
        u(`and this: 'Kannst du mich vom Bahnhof abholen?'`),
        a(`"Can you pick me up from the train station?"`),
        u(`how do i reply 'sure, no problem' to him`),
      ],
    ],
    [
      'translation',
      [
        u(`whats a good name for a black cat`),
        a(`How about Shadow, Onyx, Salem, Pepper or Midnight?`),
        u(`salem is perfect`),
        a(`Great choice, very witchy!`),
        u(
          `oh different thing, my neighbor left a note in polish: 'Proszę nie parkować przed garażem.' what does it say`,
        ),
      ],
    ],
    [
      'translation',
      [
        u(`is 'estoy embarazada' the right way to say i'm embarrassed in spanish?`),
        a(
          `Careful! "Estoy embarazada" means "I'm pregnant." For embarrassed, say "Tengo vergüenza" or "Me da vergüenza."`,
        ),
        u(`omg lol. ok what about 'i'm excited'`),
      ],
    ],
    [
      'translation',
      [
        u(
          `summarize this: 'The museum will close for renovation from June to September. Online tickets already bought will be refunded automatically.'`,
        ),
        a(
          `The museum is closed June to September for renovation, and online tickets will be refunded automatically.`,
        ),
        u(`can you give me that in arabic for my uncle`),
      ],
    ],
    [
      'translation',
      [
        u(`how far is the moon from earth`),
        a(`On average about 384,400 km.`),
        u(`woah. how long would it take to drive there`),
        a(`At 100 km/h nonstop, roughly 160 days, so a bit over 5 months.`),
        u(`haha ok. btw what's 'moon' in hindi`),
      ],
    ],
    [
      'translation',
      [
        u(
          `I need to translate my CV summary into French. 'Motivated marketing graduate with two years of experience in social media management.'`,
        ),
        a(
          `"Diplômé en marketing motivé, avec deux ans d'expérience en gestion des réseaux sociaux."`,
        ),
        u(`I'm a woman, does it change anything?`),
      ],
    ],

    // ---------- summaries ----------
    [
      'summaries',
      [
        u(
          `summarize this in one sentence: 'Scientists in Norway have developed a new type of battery made from wood waste. The battery can be charged in under ten minutes and lasts twice as long as current models. Production could start by 2027.'`,
        ),
        a(
          `Norwegian scientists made a fast-charging, long-lasting battery from wood waste that could be produced by 2027.`,
        ),
        u(`even shorter`),
      ],
    ],
    [
      'summaries',
      [
        u(
          `can you summarize this email from my teacher: 'Dear students, the exam on Friday will cover chapters 4 to 7. Calculators are allowed but phones are not. Please arrive 15 minutes early and bring your student ID. Those who miss the exam without a medical note will receive zero points.'`,
        ),
        a(
          `Exam on Friday covers chapters 4 to 7. Calculators yes, phones no. Arrive 15 minutes early with your student ID. Missing it without a doctor's note means zero points.`,
        ),
        u(`thanks`),
        a(`You're welcome, good luck on the exam!`),
        u(
          `can u do the same with this one: 'Reminder: the field trip on the 12th is cancelled due to the bus strike. We will try to reschedule in May. Permission slips already returned will stay valid.'`,
        ),
      ],
    ],
    [
      'summaries',
      [
        u(`what's the story of the movie Titanic`),
        a(
          `A poor artist, Jack, and a rich young woman, Rose, fall in love aboard the Titanic in 1912, even though her fiancé and family disapprove. The ship hits an iceberg and sinks; Jack dies in the freezing water, while Rose survives and keeps his memory for the rest of her life.`,
        ),
        u(`in 2 lines`),
      ],
    ],
    [
      'summaries',
      [
        u(`hey how are you`),
        a(`I'm good, thanks! How's your day going?`),
        u(`tired lol, long shift at work`),
        a(`Oof, sounds rough. Hope you get some rest tonight!`),
        u(
          `yeah. oh also can you give me the key points of this, my manager sent it: 'From next week, all staff must clock in using the new app. Paper timesheets will no longer be accepted. Training sessions are on Monday and Wednesday at 2pm. Contact HR if you cannot attend.'`,
        ),
      ],
    ],
    [
      'summaries',
      [
        u(
          `here's an article paragraph, tldr please: 'A new study from the University of Toronto suggests that people who spend more than three hours a day on social media are twice as likely to report poor sleep. Researchers surveyed 4,000 adults and controlled for age and income. They recommend putting phones away one hour before bed.'`,
        ),
        a(
          `TL;DR: 3+ hours of social media a day is linked to twice the risk of bad sleep; researchers suggest no phones an hour before bed.`,
        ),
        u(`ok but as bullet points`),
        a(
          `- 3+ hrs/day of social media: 2x more likely to sleep badly\n- Study of 4,000 adults, adjusted for age and income\n- Tip: no phones 1 hour before bed`,
        ),
        u(`just the first and last point`),
      ],
    ],
    [
      'summaries',
      [
        u(`what is photosynthesis`),
        a(
          `Photosynthesis is how plants make their own food. Using sunlight, they turn water and carbon dioxide into glucose (a sugar) and release oxygen. It happens mostly in the leaves, inside chloroplasts that contain the green pigment chlorophyll.`,
        ),
        u(`make that into one short sentence for my flashcard`),
      ],
    ],
    [
      'summaries',
      [
        u(`can you summarize the first chapter of 'The Hobbit'`),
        a(
          `Bilbo Baggins, a comfortable hobbit, gets a visit from the wizard Gandalf and thirteen dwarves led by Thorin. They want to take back their treasure from the dragon Smaug and need a burglar. Bilbo is reluctant, but by the end of the chapter he's been pulled into the adventure.`,
        ),
        u(`and chapter 2?`),
      ],
    ],
    [
      'summaries',
      [
        u(
          `i have this from the docs of a library, can you summarise it? 'The cache module stores responses in memory for a configurable TTL. When the TTL expires, the next request fetches fresh data from the server. Setting TTL to 0 disables caching entirely. Cache size is limited to 100 entries by default; older entries are evicted first.'`,
        ),
        a(
          `It caches responses in memory for a set time (TTL). After that, data is fetched fresh. TTL 0 turns caching off, and by default only 100 entries are kept, dropping the oldest first.`,
        ),
        u(`simpler, i'm not a dev`),
        a(
          `It remembers answers for a while so things load faster. After a set time it forgets and asks again. You can switch it off, and it only remembers the last 100 things.`,
        ),
        u(`perfect, one sentence version?`),
      ],
    ],
    [
      'summaries',
      [
        u(`what's the best way to learn guitar as an adult`),
        a(
          `Start with 15 to 20 minutes a day, learn a few basic chords (G, C, D, Em), pick songs you love, and use a tuner app. Consistency matters more than long sessions.`,
        ),
        u(
          `ok thx. different thing: can you shorten this for my bio? 'I am a passionate amateur photographer who loves travelling, drinking coffee in small cafés, and meeting people from all around the world, and I am currently studying architecture in Lisbon.'`,
        ),
      ],
    ],
    [
      'summaries',
      [
        u(
          `I have to present a news article to my class tomorrow. Can you summarize it if I paste it?`,
        ),
        a(`Of course! Paste it here and tell me how long you want the summary to be.`),
        u(
          `'Japan's space agency successfully landed a small probe on the Moon on Friday, making Japan the fifth country to do so. The landing was slightly off target, and the probe's solar panels faced the wrong way, limiting its power. Engineers still called the mission a success because it proved a new precision-landing technology.' about 3 sentences please`,
        ),
      ],
    ],

    // ---------- chat ----------
    ['chat', [u(`whats the capital of canada`), a(`Ottawa.`), u(`really? i thought toronto`)]],
    [
      'chat',
      [
        u(`should i get a cat or a dog, i live in a small apartment`),
        a(
          `A cat is usually easier in a small apartment: they're independent, don't need walks and are fine alone during the day. A dog can work too if you pick a small, calm breed and have time for daily walks.`,
        ),
        u(`i work like 9 hours a day`),
        a(
          `Then a cat is probably the better choice. Most dogs struggle being alone that long without someone to walk them.`,
        ),
        u(`why tho`),
      ],
    ],
    [
      'chat',
      [
        u(`def greet(name): print('hi ' + name)\ncan you make this return the string instead`),
        a(`def greet(name):\n    return 'hi ' + name`),
        u(`who made python anyway`),
      ],
    ],
    [
      'chat',
      [
        u(`who won the world cup in 2014`),
        a(`Germany. They beat Argentina 1-0 in the final in Brazil.`),
        u(`and the one before`),
      ],
    ],
    [
      'chat',
      [
        u(`translate 'where is the train station' to french`),
        a(`"Où est la gare ?"`),
        u(`merci!`),
        a(`De rien! Have a good trip.`),
        u(`btw is paris really that expensive? going there in july for 4 days`),
      ],
    ],
    [
      'chat',
      [
        u(`i can't sleep again`),
        a(
          `Sorry to hear that. Is something on your mind, or is it more that your body just won't settle?`,
        ),
        u(`kinda both, exams next week`),
        a(
          `That makes sense, exam stress keeps a lot of people awake. Try writing down what's worrying you before bed, and keep screens away for the last 30 minutes. Even resting with your eyes closed helps.`,
        ),
        u(`does that actually work or is it just something people say`),
      ],
    ],
    [
      'chat',
      [
        u(`what's a good movie for date night`),
        a(
          `"La La Land" is a nice pick: romantic, great music, and beautiful to look at. If you want something lighter, "Crazy, Stupid, Love" is fun.`,
        ),
        u(`she hates musicals`),
      ],
    ],
    [
      'chat',
      [
        u(`solve 2x + 4 = 10`),
        a(`2x = 6, so x = 3.`),
        u(`why do we even have to learn algebra, like when will i ever use it`),
      ],
    ],
    [
      'chat',
      [
        u(`Hi! I'm visiting Japan for the first time next month. Any tips?`),
        a(
          `Exciting! Get a Suica or other IC card for trains, carry some cash since smaller places don't take cards, and learn a few polite phrases. Also, tipping isn't a thing there.`,
        ),
        u(`Is it rude to eat while walking?`),
        a(
          `It's generally frowned upon, especially in busy areas. People usually eat near the stall or shop where they bought the food.`,
        ),
        u(`Good to know. What about talking on the phone on the train?`),
        a(
          `Best to avoid it. Phones are usually on silent and people don't take calls on trains. Texting is totally fine.`,
        ),
        u(`ok last one, how much money should i plan per day if i stay in tokyo`),
      ],
    ],
    [
      'chat',
      [
        u(`im so bored, tell me a fun fact`),
        a(`Octopuses have three hearts, and their blood is blue!`),
        u(`no way. another one`),
      ],
    ],
  ],
};
