// The routes of the second writer's assistant6 set: the conversations are over the same six.
import { a, u } from '../turns.mjs';
import { freshAssistant6 } from './assistant6.mjs';

const routes6 = freshAssistant6.routes;

export const conversationsFresh = {
  name: 'second-writer-conversations',
  about:
    'Multi-turn chats over the six assistant routes; the label is the route for the LAST user message in context (mostly context-dependent follow-ups, about a fifth are topic switches).',
  routes: routes6,
  conversations: [
    // ---- code ----
    [
      'code',
      [
        u('write a function that checks if a number is even in javascript'),
        a('const isEven = (n) => n % 2 === 0;'),
        u('and in Python?'),
      ],
    ],
    [
      'code',
      [
        u('how do i sort a list of dicts by a key in python'),
        a("Use sorted(items, key=lambda d: d['age']). It returns a new list ordered by that key."),
        u('what about descending?'),
      ],
    ],
    [
      'code',
      [
        u('My Node server throws EADDRINUSE when it starts'),
        a(
          'Another process is already listening on that port. Find it with lsof -i :3000 and stop it, or start your server on a different port.',
        ),
        u('how do I kill it on windows though'),
      ],
    ],
    [
      'code',
      [
        u('can you write a SQL query that gets the top 5 customers by total spend'),
        a(
          'SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id ORDER BY total DESC LIMIT 5;',
        ),
        u('now add their names from the customers table'),
      ],
    ],
    [
      'code',
      [
        u('explain what this does: [x*2 for x in nums if x > 0]'),
        a('It builds a new list containing every positive number from nums, doubled.'),
        u('can you rewrite it as a normal for loop'),
      ],
    ],
    [
      'code',
      [
        u("Translate 'good morning' to Spanish"),
        a('Buenos días.'),
        u('thanks. unrelated - why does my python script say IndentationError: unexpected indent?'),
      ],
    ],
    [
      'code',
      [
        u('write a bash script that backs up my home folder to /mnt/backup'),
        a('#!/bin/bash\nrsync -a --delete ~/ /mnt/backup/'),
        u('make it run every night'),
        a('Add a cron entry such as: 0 2 * * * /home/you/backup.sh'),
        u("it's not running, the log says permission denied"),
      ],
    ],
    [
      'code',
      [
        u('my function returns None sometimes: def find(xs, t): for x in xs: if x == t: return x'),
        a("When t isn't in xs the loop finishes and Python implicitly returns None."),
        u('ok so how should I handle that case properly'),
      ],
    ],
    [
      'code',
      [
        u("what's a 15% tip on $64"),
        a('$9.60, so $73.60 in total.'),
        u('cool. can you show me a javascript function that does that with two decimals'),
      ],
    ],
    [
      'code',
      [
        u('give me a React component that shows a counter with + and - buttons'),
        a(
          'function Counter() { const [n, setN] = useState(0); return (<div><button onClick={() => setN(n - 1)}>-</button>{n}<button onClick={() => setN(n + 1)}>+</button></div>); }',
        ),
        u('add a reset button too'),
      ],
    ],
    [
      'code',
      [
        u("what's the difference between == and === in JS"),
        a(
          "== compares after type coercion, so '1' == 1 is true. === compares value and type without coercion.",
        ),
        u('which one should I be using then?'),
      ],
    ],
    [
      'code',
      [
        u("I'm getting a merge conflict in package-lock.json"),
        a(
          'The easiest fix is usually to accept one side, then run npm install to regenerate the lock file.',
        ),
        u('which command takes theirs?'),
      ],
    ],
    [
      'code',
      [
        u('summarize this: the meeting is moved to Friday, bring laptops'),
        a('Meeting moved to Friday; bring laptops.'),
        u('great. different question: how do I center a div with css grid'),
      ],
    ],
    [
      'code',
      [
        u('write a regex for email addresses'),
        a('^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$'),
        u('it lets a@b.c through, can you make it stricter?'),
      ],
    ],
    [
      'code',
      [
        u('Can you write a Python class for a bank account with deposit and withdraw?'),
        a(
          'class Account:\n    def __init__(self): self.balance = 0\n    def deposit(self, x): self.balance += x\n    def withdraw(self, x): self.balance -= x',
        ),
        u('perfect'),
        a('Glad it helps! Anything else?'),
        u('yes, raise an exception if the balance would go negative'),
      ],
    ],
    // ---- math ----
    [
      'math',
      [
        u("what's the derivative of x^2 sin x"),
        a('Using the product rule: 2x sin x + x^2 cos x.'),
        u('and the second derivative?'),
      ],
    ],
    ['math', [u('solve 2x + 3 = 11'), a('x = 4.'), u('now 2x^2 + 3 = 11')]],
    ['math', [u("what's 18% of 250"), a('45.'), u('and 22%?')]],
    [
      'math',
      [
        u("I have a 30-year mortgage of 300k at 6%. what's the monthly payment?"),
        a('About $1,799 per month, excluding taxes and insurance.'),
        u('what if it were 15 years instead'),
      ],
    ],
    [
      'math',
      [
        u('write me a poem about rain'),
        a('Soft on the window, the grey sky sighs,\nwashing the street where the morning lies...'),
        u('lovely. quick one: how many seconds are there in a week?'),
      ],
    ],
    [
      'math',
      [
        u('probability of drawing an ace from a deck'),
        a('4 out of 52, which is 1/13 or about 7.7%.'),
        u('two in a row without putting the first back?'),
      ],
    ],
    ['math', [u('convert 5 miles to km'), a('About 8.05 km.'), u('and a marathon?')]],
    [
      'math',
      [
        u('Can you explain how to find the determinant of a 3x3 matrix?'),
        a(
          'Expand along the first row: multiply each entry by the determinant of its 2x2 minor, alternating signs +, -, +.',
        ),
        u('ok do it for [[1,2,3],[0,1,4],[5,6,0]]'),
      ],
    ],
    ['math', [u('integrate x e^x'), a('x e^x - e^x + C.'), u('show the steps please')]],
    [
      'math',
      [
        u("translate 'how much does it cost' to French"),
        a('Combien ça coûte ?'),
        u(
          "merci. btw if something costs 40 euros with 20% VAT included, what's the price before VAT?",
        ),
      ],
    ],
    ['math', [u('mean of 3, 7, 8, 10'), a('The mean is 7.'), u('median?')]],
    ['math', [u('is 97 prime?'), a('Yes, 97 is prime.'), u('what about 91')]],
    [
      'math',
      [
        u('a rectangle has perimeter 30 and area 56, find the sides'),
        a('The sides are 7 and 8.'),
        u('how did you get that?'),
      ],
    ],
    [
      'math',
      [
        u('write a haiku about autumn'),
        a('Maple leaves let go\nthe wind carries them somewhere\nquiet as a thought'),
        u(
          'nice. totally different: if I save 250 a month at 5% a year, how much do I have after 8 years?',
        ),
      ],
    ],
    [
      'math',
      [
        u("what's the formula for compound interest"),
        a(
          'A = P(1 + r/n)^(nt), where P is the principal, r the annual rate, n compounding periods per year and t years.',
        ),
        u('plug in 1000, 3%, monthly, 5 years'),
      ],
    ],
    // ---- creative ----
    [
      'creative',
      [
        u('write a short poem about the sea'),
        a('The sea keeps secrets in its salt,\nit hums them to the shore...'),
        u('make it rhyme'),
      ],
    ],
    [
      'creative',
      [
        u('give me a slogan for a vegan bakery'),
        a('Baked with heart, not with dairy.'),
        u('something punchier'),
      ],
    ],
    [
      'creative',
      [
        u('tell me a joke about programmers'),
        a('Why do programmers prefer dark mode? Because light attracts bugs.'),
        u('another one'),
      ],
    ],
    [
      'creative',
      [
        u('write a story opening about a lighthouse keeper'),
        a(
          'For thirty years Tomas had climbed the 112 steps at dusk, and for thirty years the light had never failed. Until tonight.',
        ),
        u('continue'),
      ],
    ],
    [
      'creative',
      [
        u("what's the capital of Peru"),
        a('Lima.'),
        u('ok now write me a limerick about a llama from Lima'),
      ],
    ],
    [
      'creative',
      [
        u("names for my new cafe? it's cozy with lots of books"),
        a('The Reading Nook, Chapter & Verse, Brew & Borrow, The Dog-Eared Page.'),
        u('more like the second one'),
      ],
    ],
    [
      'creative',
      [
        u('write a birthday poem for my mom'),
        a('To the one who taught me how to laugh and how to try...'),
        u("she's turning 60 and loves gardening, can you work that in"),
      ],
    ],
    [
      'creative',
      [
        u('a bedtime story about a brave little turtle'),
        a(
          'Once upon a time, a small turtle named Pip decided to cross the whole pond by himself...',
        ),
        u('can you add a talking owl to it'),
      ],
    ],
    [
      'creative',
      [
        u(
          'summarize this: The board approved the merger yesterday after a long debate. Shareholders vote next month.',
        ),
        a('The board approved the merger; shareholders vote next month.'),
        u('thanks. now something fun: write a rap about my cat Biscuit'),
      ],
    ],
    [
      'creative',
      [
        u('write song lyrics about summer love'),
        a('Verse 1: Sunburnt shoulders, radio on, we drove until the stars were gone...'),
        u('now a bridge'),
      ],
    ],
    [
      'creative',
      [
        u('write a haiku about coffee'),
        a('Dark cup, morning steam\nthe house still asleep around\nmy first quiet sip'),
        u('now one about tea'),
      ],
    ],
    [
      'creative',
      [
        u("I'm running a D&D game, give me a mysterious NPC"),
        a(
          'Meet Orla Vane, a ferrywoman who never charges a fare and always knows your name before you say it.',
        ),
        u("what's her dark secret?"),
      ],
    ],
    [
      'creative',
      [
        u('wedding toast for my sister please'),
        a('To my sister, who once made me promise never to give a speech at her wedding...'),
        u("funnier, she'll love it"),
      ],
    ],
    [
      'creative',
      [
        u('how do I fix a 404 in express'),
        a(
          'Make sure the route is registered before any catch-all handler and that the path and method match.',
        ),
        u("got it. hey, can you write a goofy poem about debugging for my team's slack?"),
      ],
    ],
    [
      'creative',
      [
        u('write a product description for a toaster in the style of a medieval bard'),
        a('Hark! Behold the Toaster Most Valiant, slayer of cold bread...'),
        u('do the same for a vacuum cleaner'),
      ],
    ],
    // ---- translate ----
    [
      'translate',
      [
        u("translate 'where is the bathroom' to Spanish"),
        a('¿Dónde está el baño?'),
        u('and in Italian?'),
      ],
    ],
    [
      'translate',
      [
        u("how do you say 'thank you very much' in Japanese"),
        a('Arigatou gozaimasu (ありがとうございます).'),
        u('what about korean'),
      ],
    ],
    [
      'translate',
      [
        u('Translate to German: The meeting starts at 9.'),
        a('Das Meeting beginnt um 9 Uhr.'),
        u('now in French'),
      ],
    ],
    [
      'translate',
      [
        u('write a short thank-you note to my host family'),
        a(
          'Dear Garcia family, thank you so much for welcoming me into your home. I will never forget your kindness.',
        ),
        u('now in Spanish please'),
      ],
    ],
    [
      'translate',
      [
        u("what's 12 times 14"),
        a('168.'),
        u("ok. and how do I say 'one hundred sixty-eight' in German?"),
      ],
    ],
    [
      'translate',
      [
        u("what does 'carpe diem' mean?"),
        a("It's Latin for 'seize the day'."),
        u('how would you say it in Greek?'),
      ],
    ],
    [
      'translate',
      [
        u("Translate 'I'm vegetarian' into Thai"),
        a('ฉันกินมังสวิรัติ (chan gin mangsawirat).'),
        u("and 'no fish sauce please'"),
      ],
    ],
    [
      'translate',
      [
        u(
          'Can you summarize this: Our office will be closed on Monday for the holiday. Support tickets will be answered on Tuesday.',
        ),
        a('Office closed Monday; tickets answered Tuesday.'),
        u('great, put that into Portuguese'),
      ],
    ],
    [
      'translate',
      [
        u('translate into Dutch: happy new year to all our customers'),
        a('Gelukkig nieuwjaar aan al onze klanten.'),
        u('is there a more formal way to phrase it in Dutch?'),
      ],
    ],
    [
      'translate',
      [
        u('give me a recipe for guacamole'),
        a(
          'Mash 2 ripe avocados with lime juice, salt, chopped onion, tomato, cilantro and a little chili.',
        ),
        u('how do I say avocado and lime in Hindi?'),
      ],
    ],
    [
      'translate',
      [
        u("what does 'Schadenfreude' mean in English"),
        a("Pleasure taken in someone else's misfortune."),
        u('how would a Spanish speaker say that?'),
      ],
    ],
    [
      'translate',
      [
        u("translate this to English: 'Je suis désolé, je ne peux pas venir ce soir.'"),
        a("I'm sorry, I can't come tonight."),
        u("how do I reply 'no worries, next time' in French?"),
      ],
    ],
    [
      'translate',
      [
        u('Write a tweet announcing our summer sale'),
        a("Summer Sale is ON! Up to 40% off everything this week only. Don't miss out!"),
        u('nice, give me the same in Italian and German'),
      ],
    ],
    [
      'translate',
      [
        u('explain recursion'),
        a(
          'Recursion is when a function solves a problem by calling itself on a smaller version of the same problem, until it reaches a base case.',
        ),
        u("thanks. separate thing - what's 'see you tomorrow' in Mandarin?"),
      ],
    ],
    [
      'translate',
      [
        u("how do I say 'check please' in French"),
        a("L'addition, s'il vous plaît."),
        u('thanks'),
        a("You're welcome! Anything else?"),
        u("yes, and 'can we see the menu'?"),
      ],
    ],
    // ---- summarize ----
    [
      'summarize',
      [
        u(
          'Summarize this article: Electric car sales grew 35% last year, led by China and Europe. Prices are falling as battery costs drop, but charging infrastructure is still patchy in rural areas. Analysts expect growth to slow slightly as subsidies end.',
        ),
        a(
          'EV sales rose 35%, driven by China and Europe; cheaper batteries help, rural charging lags, and growth may slow as subsidies expire.',
        ),
        u('shorter please'),
      ],
    ],
    [
      'summarize',
      [
        u(
          'Here are my meeting notes: budget approved, Lisa hires two contractors, website redesign pushed to Q3, Omar sends the vendor list by Friday. Can you summarize?',
        ),
        a(
          'The budget was approved; Lisa will hire two contractors, the redesign moves to Q3 and Omar sends vendors by Friday.',
        ),
        u('just the action items'),
      ],
    ],
    [
      'summarize',
      [
        u(
          'tl;dr this: The coastal path closes for repairs from May 1. Hikers can use the inland detour, which adds 3 km. Shuttle buses run hourly between the two car parks.',
        ),
        a(
          'Coastal path closed from May 1; use the 3 km longer inland detour or the hourly shuttle.',
        ),
        u('one sentence, even shorter'),
      ],
    ],
    [
      'summarize',
      [
        u("I'm going to paste a long email"),
        a('Sure, go ahead.'),
        u(
          'Hi team, the office move is on March 3rd. Please pack your desks by Friday. IT will disconnect computers Thursday evening. Parking passes for the new building arrive next week. Boil it down for me',
        ),
      ],
    ],
    [
      'summarize',
      [
        u("what's the weather like in Lisbon in May"),
        a('Usually mild and sunny, around 18-24°C, with occasional showers.'),
        u(
          "thanks. can you give me the gist of this: The new policy requires all staff to complete security training by June. Anyone who doesn't will lose VPN access. The training takes about 45 minutes.",
        ),
      ],
    ],
    [
      'summarize',
      [
        u('Summarize the first Lord of the Rings book'),
        a(
          'Frodo inherits the One Ring, learns it must be destroyed, and sets out with the Fellowship, which breaks apart at the end.',
        ),
        u('now the second one'),
      ],
    ],
    [
      'summarize',
      [
        u(
          'summarize these two reviews: 1) Great hotel, friendly staff, noisy at night. 2) Clean rooms but the breakfast was poor and overpriced.',
        ),
        a(
          'Guests like the staff and cleanliness but complain about night noise and a weak, pricey breakfast.',
        ),
        u('what about just the second one?'),
      ],
    ],
    [
      'summarize',
      [
        u(
          'give me the key points of this abstract: We surveyed 2,000 remote workers. Most reported higher productivity but more loneliness. Workers with weekly in-person meetups reported the best wellbeing.',
        ),
        a(
          'Remote workers feel more productive but lonelier; weekly meetups are linked to the best wellbeing.',
        ),
        u('as bullets'),
      ],
    ],
    [
      'summarize',
      [
        u(
          'summarize: The city plans to close Main Street to cars every Sunday this summer. Cafes can put tables on the road and there will be street performers. Buses will be rerouted via Park Avenue.',
        ),
        a(
          'Main Street will be car-free on summer Sundays with outdoor cafes and performers; buses divert via Park Avenue.',
        ),
        u('even shorter, like a headline'),
      ],
    ],
    [
      'summarize',
      [
        u('write a python function to count words'),
        a('def count_words(s): return len(s.split())'),
        u(
          'ok and now give me a tl;dr of this blog intro: Remote work has changed how teams communicate. Async tools have replaced many meetings, but some teams report feeling isolated. Managers are experimenting with in-person weeks.',
        ),
      ],
    ],
    [
      'summarize',
      [
        u(
          "summarize this call transcript: Agent: how can I help? Customer: my router keeps dropping. Agent: I'll reset it remotely. Customer: still dropping. Agent: I'll send a technician Tuesday.",
        ),
        a(
          "The customer's router kept disconnecting; a remote reset failed, so a technician visit is booked for Tuesday.",
        ),
        u('can you do it as 3 bullet points instead'),
      ],
    ],
    [
      'summarize',
      [
        u(
          "here's a paragraph from my textbook: Plate tectonics describes how Earth's outer shell is split into plates that move slowly over the mantle. Their collisions form mountains, and their separation creates new ocean floor. summarize?",
        ),
        a(
          "Earth's crust is made of moving plates; collisions build mountains and separations create new seafloor.",
        ),
        u('now make it simple enough for a 10 year old'),
      ],
    ],
    [
      'summarize',
      [
        u(
          'summarize this support ticket: Customer was double charged in March, has emailed twice, wants a refund and is threatening to cancel.',
        ),
        a('Double-charged customer, two unanswered emails, wants a refund, may cancel.'),
        u(
          'and this one: Customer says the app logs them out every 5 minutes since the update, tried reinstalling, no luck, wants a refund.',
        ),
      ],
    ],
    [
      'summarize',
      [
        u("translate 'hello' to German"),
        a('Hallo.'),
        u(
          'danke. now condense this paragraph for me: Our quarterly revenue was flat, but costs fell 8% thanks to lower shipping prices. We hired 12 people and opened one new warehouse.',
        ),
      ],
    ],
    [
      'summarize',
      [
        u(
          'tldr: The school trip to the science museum is on April 12. Students need a packed lunch and a signed permission slip. The bus leaves at 8:15 sharp.',
        ),
        a('Museum trip April 12: packed lunch, signed slip, bus at 8:15.'),
        u('thanks'),
        a('Anytime!'),
        u(
          'one more please: The gym closes for renovations from July 1 to July 14. Members get two extra weeks added to their membership. The pool stays open.',
        ),
      ],
    ],
    // ---- general ----
    ['general', [u("what's the capital of Canada"), a('Ottawa.'), u('and Australia?')]],
    [
      'general',
      [
        u('give me a recipe for pancakes'),
        a(
          'Whisk 200g flour, 2 eggs, 300ml milk, a pinch of salt and a spoon of sugar; fry ladlefuls in a hot buttered pan.',
        ),
        u('can I use oat milk instead'),
      ],
    ],
    [
      'general',
      [
        u('best places to visit in Portugal?'),
        a('Lisbon, Porto, the Algarve coast and Sintra are the classics.'),
        u('what about the second one? worth 2 days?'),
      ],
    ],
    ['general', [u('hi'), a('Hi! How can I help today?'), u('just wanted to chat, how are you')]],
    [
      'general',
      [
        u('solve x^2 = 49'),
        a('x = 7 or x = -7.'),
        u("thanks! unrelated, what's a good movie for a rainy sunday?"),
      ],
    ],
    [
      'general',
      [
        u('how long do I cook a 5kg turkey'),
        a('Roughly 3 to 3.5 hours at 180°C, until the thickest part reaches 74°C.'),
        u('and does it need to rest after?'),
      ],
    ],
    ['general', [u('who wrote 1984'), a('George Orwell.'), u('what else did he write?')]],
    [
      'general',
      [
        u('tips for jet lag?'),
        a(
          'Shift your sleep gradually before the trip, get daylight on arrival, stay hydrated and avoid long naps.',
        ),
        u("what if I'm flying west instead?"),
      ],
    ],
    [
      'general',
      [
        u("I have a headache that won't go away"),
        a(
          'Try water, rest and an over-the-counter painkiller; see a doctor if it persists or is severe.',
        ),
        u('when should I actually worry?'),
      ],
    ],
    [
      'general',
      [
        u('write me a poem about spring'),
        a('Green returns like an old friend,\nknocking softly on the soil...'),
        u('nice. by the way, when is the best time to plant tulip bulbs?'),
      ],
    ],
    [
      'general',
      [
        u('is Lisbon or Barcelona better for a first trip to Europe?'),
        a(
          'Both are great: Barcelona for architecture and nightlife, Lisbon for a relaxed pace and views.',
        ),
        u("which one's cheaper?"),
      ],
    ],
    [
      'general',
      [
        u("what's the tallest building in the world"),
        a('The Burj Khalifa in Dubai, at 828 metres.'),
        u('how long did it take to build?'),
      ],
    ],
    [
      'general',
      [
        u('Do you have any tips for a job interview?'),
        a(
          'Research the company, prepare a few stories about your achievements, and have questions ready for them.',
        ),
        u('thanks, one more - what should I wear?'),
      ],
    ],
    [
      'general',
      [u("translate 'cat' into French"), a('Chat.'), u('lol. do cats actually see in color?')],
    ],
    [
      'general',
      [
        u('recommend a book like The Martian'),
        a('Project Hail Mary by the same author, Andy Weir.'),
        u('anything else?'),
      ],
    ],
  ],
};
