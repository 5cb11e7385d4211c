// Blind set: multi-turn conversations over the topics6 routes. The last user message alone names
// no topic ("and of 1/x²?", "shorter please", "keep going"); the label is what the conversation is
// about. The last group switches topic in the last message, and the new topic is the label.
// Each message carries its text as both `text` (DecisionInput) and, for user messages, `content`
// (ChatMessage), so either shape can be fed as is.
import { topics6Routes } from './topics6.mjs';

const u = (text) => ({ role: 'user', content: text, text });
const a = (text) => ({ role: 'assistant', text });

export const conversations = {
  name: 'conversations',
  about:
    'blind: multi-turn follow-ups over the topics6 routes; the last message alone is ambiguous',
  routes: topics6Routes,
  conversations: [
    // code
    [
      'code',
      [
        u("My Express server crashes with 'EADDRINUSE' on startup."),
        a('Another process is already using port 3000. Stop it or pick another port.'),
        u('how do I find which one?'),
      ],
    ],
    [
      'code',
      [
        u('Write a bash one-liner that counts the lines in all .ts files.'),
        a("find . -name '*.ts' | xargs wc -l"),
        u('now exclude node_modules'),
      ],
    ],
    [
      'code',
      [
        u('Can you write a function that validates a UK postcode in JavaScript?'),
        a('Sure: const isPostcode = (s) => /^[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}$/i.test(s);'),
        u('same thing in Go?'),
      ],
    ],
    [
      'code',
      [
        u(
          "I'm getting 'TypeError: Cannot read properties of undefined (reading 'map')' in my React list.",
        ),
        a(
          'Your data is probably undefined on the first render. Initialise the state with an empty array.',
        ),
        u('still happening'),
      ],
    ],
    [
      'code',
      [
        u('Should I use a Map or a plain object for a cache keyed by user id in TypeScript?'),
        a('A Map: keys of any type, insertion order, a size property and no prototype keys.'),
        u('what about memory?'),
      ],
    ],
    [
      'code',
      [
        u('Review my Dockerfile:\nFROM node:20\nCOPY . .\nRUN npm install\nCMD node index.js'),
        a(
          'Copy package*.json first and run npm ci before copying the rest, so the install layer is cached. A slim base image would also help.',
        ),
        u('ok rewrite it with those changes'),
      ],
    ],
    [
      'code',
      [
        u('How do I read a CSV file in pandas?'),
        a("pd.read_csv('file.csv')."),
        u('it has semicolons instead of commas'),
      ],
    ],
    [
      'code',
      [
        u("What's a race condition?"),
        a(
          'When the result depends on the timing of threads that touch shared state without coordination.',
        ),
        u('show me one'),
      ],
    ],
    [
      'code',
      [
        u('My SQL query returns duplicate rows after I join orders and customers.'),
        a('Each customer appears once per order. Do you want one row per customer?'),
        u('yes'),
        a('Then group by customer, or use SELECT DISTINCT on the customer columns.'),
        u('which one is faster?'),
      ],
    ],
    [
      'code',
      [
        u('Explain the difference between git merge and git rebase.'),
        a(
          'Merge keeps both histories and adds a merge commit; rebase replays your commits on top of the other branch for a linear history.',
        ),
        u('which one should my team use?'),
      ],
    ],
    [
      'code',
      [
        u("I wrote a recursive fibonacci in Python and it's super slow for n=40."),
        a(
          'It recomputes the same values exponentially many times. Memoize it with functools.lru_cache.',
        ),
        u('can you show the iterative version too'),
      ],
    ],
    // math
    ['math', [u('Integrate 1/x for me.'), a('ln|x| + C.'), u('and of 1/x²?')]],
    [
      'math',
      [
        u('A shirt costs $40 after a 20% discount. What was the original price?'),
        a('$50.'),
        u('can you show the steps'),
      ],
    ],
    [
      'math',
      [u('Is 2^31 - 1 prime?'), a('Yes, 2147483647 is a Mersenne prime.'), u('and 2^11 - 1?')],
    ],
    [
      'math',
      [
        u("What's the probability of drawing an ace from a standard deck?"),
        a('4/52, which is 1/13.'),
        u('two in a row without putting the first one back?'),
      ],
    ],
    [
      'math',
      [
        u('Solve the system: x + y = 10, x - y = 4.'),
        a('x = 7, y = 3.'),
        u('now replace the first one with x + 2y = 10'),
      ],
    ],
    [
      'math',
      [
        u('How do I find the median of an even number of values?'),
        a('Sort them and take the average of the two middle values.'),
        u('ok, do it for 4, 9, 1, 7'),
        a('Sorted: 1, 4, 7, 9. The median is (4 + 7) / 2 = 5.5.'),
        u('and the mean?'),
      ],
    ],
    [
      'math',
      [
        u("Can you prove that there's no largest natural number?"),
        a(
          'Suppose n is the largest. Then n + 1 is a natural number larger than n, a contradiction.',
        ),
        u('now do the same for primes'),
      ],
    ],
    [
      'math',
      [u("What's the formula for the area of a circle?"), a('A = πr².'), u("mine's 10 cm across")],
    ],
    [
      'math',
      [
        u('Differentiate f(x) = x^2 e^x.'),
        a("f'(x) = 2x e^x + x^2 e^x = e^x (x^2 + 2x)."),
        u('where is it zero?'),
      ],
    ],
    [
      'math',
      [
        u('I have 3 shirts and 4 pairs of trousers. How many different outfits is that?'),
        a('3 × 4 = 12.'),
        u('what if I add 2 hats'),
      ],
    ],
    ['math', [u('Convert 101101 from binary to decimal.'), a('45.'), u('and to hex?')]],
    // creative
    [
      'creative',
      [
        u('Write a limerick about a forgetful wizard.'),
        a('There once was a wizard named Lee, / who forgot every spell except three...'),
        u('the rhymes are a bit weak, fix them?'),
      ],
    ],
    [
      'creative',
      [
        u("Write a short poem for my mom's retirement, she was a teacher for 35 years."),
        a('Thirty-five years of chalk and light, / of patient mornings, papers marked at night...'),
        u('shorter please, it has to fit on a card'),
      ],
    ],
    [
      'creative',
      [
        u('Give me three names for a tavern in my fantasy novel.'),
        a('1. The Gilded Goose 2. The Sleeping Giant 3. The Crooked Lantern'),
        u('I like the second one, what is its backstory?'),
      ],
    ],
    [
      'creative',
      [
        u('Start a story about a girl who finds a door in the forest.'),
        a('Mira had walked the path a hundred times, but the door had never been there before...'),
        u('keep going'),
        a(
          'Behind it the forest was the same forest, only quieter, and the trees leaned toward her as if listening...',
        ),
        u('give it a happy ending'),
      ],
    ],
    [
      'creative',
      [
        u('Write a slogan for an eco-friendly water bottle brand.'),
        a("'Refill the planet.'"),
        u('something funnier'),
      ],
    ],
    [
      'creative',
      [
        u('Write a dialogue between a detective and a suspect who is a talking parrot.'),
        a('DETECTIVE: Where were you last night?\nPARROT: Where were YOU last night? Squawk.'),
        u('more, and have him confess at the end'),
      ],
    ],
    [
      'creative',
      [
        u('Can you write song lyrics about a summer road trip?'),
        a('Verse 1: Windows down on Highway 9, / sunburnt arms and cheap red wine...'),
        u('now a bridge'),
      ],
    ],
    [
      'creative',
      [
        u('Write a bedtime story about a sleepy turtle.'),
        a('Once upon a time, in a quiet pond, lived a turtle named Tobi who was always sleepy...'),
        u('my son wants a dragon in it'),
      ],
    ],
    [
      'creative',
      [
        u('Got a joke about programmers?'),
        a('Why do programmers prefer dark mode? Because light attracts bugs.'),
        u('another'),
      ],
    ],
    [
      'creative',
      [
        u(
          'I need a wedding toast. My best friend Sam is marrying Alex; they met at a karaoke bar.',
        ),
        a(
          "Here's a first draft: 'When Sam told me they'd met someone at karaoke, I assumed the worst...'",
        ),
        u('less cheesy, more heartfelt'),
      ],
    ],
    [
      'creative',
      [
        u('Write a haiku about Monday mornings.'),
        a("Alarm's cruel summons / coffee cannot reach my soul / the week stretches on"),
        u('now one for friday'),
      ],
    ],
    // translate
    [
      'translate',
      [u("How do you say 'good luck' in French?"), a("'Bonne chance.'"), u('and in Italian?')],
    ],
    [
      'translate',
      [
        u("Translate 'I would like a table for two' into Spanish."),
        a("'Quisiera una mesa para dos.'"),
        u('more casual?'),
      ],
    ],
    [
      'translate',
      [
        u("What does the German word 'Fernweh' mean?"),
        a('A longing for faraway places, the opposite of homesickness.'),
        u('and the word for homesickness?'),
      ],
    ],
    [
      'translate',
      [
        u('Translate to Japanese: where is the nearest pharmacy?'),
        a('一番近い薬局はどこですか？ (Ichiban chikai yakkyoku wa doko desu ka?)'),
        u('and how would I actually say that out loud?'),
      ],
    ],
    [
      'translate',
      [
        u('Please translate this into Portuguese: the package will arrive on Thursday.'),
        a("'O pacote vai chegar na quinta-feira.'"),
        u('is that Brazilian or European?'),
      ],
    ],
    [
      'translate',
      [
        u("What's 'thank you very much' in German?"),
        a("'Vielen Dank' or 'Danke schön'."),
        u('which one is more polite?'),
        a("'Vielen Dank' is slightly more formal; both are polite."),
        u('and at the end of a formal letter?'),
      ],
    ],
    [
      'translate',
      [
        u("What does 'je ne sais quoi' mean in English?"),
        a("Literally 'I don't know what': an attractive quality that is hard to name."),
        u("and 'déjà vu'?"),
      ],
    ],
    [
      'translate',
      [
        u("How do I say 'I don't eat meat' in Vietnamese?"),
        a("'Tôi không ăn thịt.'"),
        u("and 'no fish sauce please'?"),
      ],
    ],
    [
      'translate',
      [
        u("Translate this sign for me: 'Bitte nicht stören'."),
        a("'Please do not disturb.'"),
        u("and the one under it, 'Rauchen verboten'"),
      ],
    ],
    [
      'translate',
      [
        u("Can you translate 'see you tomorrow' into Korean?"),
        a("'내일 봐요' (naeil bwayo)."),
        u('formal version?'),
      ],
    ],
    [
      'translate',
      [
        u('Translate into Spanish: Our office will be closed on Monday.'),
        a("'Nuestra oficina estará cerrada el lunes.'"),
        u('now the same in Catalan'),
      ],
    ],
    // summarize
    [
      'summarize',
      [
        u(
          "Summarize this: 'The city council voted 7-2 to approve the new stadium. Construction begins in spring and will cost $300 million, half paid by taxpayers. Opponents say the money should go to schools.'",
        ),
        a(
          'The council approved a $300M stadium, half publicly funded, starting in spring, despite objections that schools need the money.',
        ),
        u('even shorter'),
      ],
    ],
    [
      'summarize',
      [
        u(
          "Give me the key points of this email: 'Hi all, the quarterly review moves to Thursday 3pm. Please send your slides to Dana by Wednesday noon. Remote attendees will get a Zoom link. Lunch will be provided.'",
        ),
        a(
          '- Review moved to Thursday 3pm\n- Slides to Dana by Wednesday noon\n- Zoom link for remote attendees\n- Lunch provided',
        ),
        u('just the deadlines'),
      ],
    ],
    [
      'summarize',
      [
        u(
          "Can you summarize this? 'Researchers found that people who walk 7,000 steps a day have a 50% lower risk of early death than those who walk 4,000, with little extra benefit beyond 10,000.'",
        ),
        a(
          'Walking about 7,000 steps a day halves the risk of early death compared with 4,000; above 10,000 the benefit levels off.',
        ),
        u('for a 10 year old?'),
      ],
    ],
    [
      'summarize',
      [
        u(
          "TL;DR this review: 'The hotel was clean and the staff friendly, but the walls were paper thin and breakfast was overpriced. Location is perfect for the old town.'",
        ),
        a('Clean, friendly, great location; noisy rooms and pricey breakfast.'),
        u('as one sentence?'),
      ],
    ],
    [
      'summarize',
      [
        u(
          'Summarize these notes:\n- budget approved\n- hire 2 designers\n- launch in Q3\n- legal review pending',
        ),
        a(
          'The budget is approved and two designers will be hired for a Q3 launch; the legal review is still pending.',
        ),
        u('bullet points instead'),
      ],
    ],
    [
      'summarize',
      [
        u(
          "Here's a paragraph from my report: 'Sales in the northern region declined for the third consecutive quarter, primarily due to the closure of two major retail partners and increased competition from online discounters.' Summarize it in a few words.",
        ),
        a('Northern sales down a third quarter: lost partners and online competition.'),
        u(
          "ok now this one: 'Meanwhile, the southern region grew 14%, driven by the new franchise stores.'",
        ),
      ],
    ],
    [
      'summarize',
      [
        u(
          "Condense this into a tweet: 'We are delighted to announce that our bakery will be opening a second location on Main Street this September, with extended hours and a new range of gluten-free products.'",
        ),
        a(
          'Our second bakery opens on Main Street this September: longer hours and new gluten-free treats! 🥐',
        ),
        u('without the emoji, and shorter'),
      ],
    ],
    [
      'summarize',
      [
        u(
          "Summarize the plot of the text below: 'A fisherman catches a golden fish that grants wishes. His wife keeps demanding more, a house, a palace, to be queen, until she asks to be god and they lose everything.'",
        ),
        a(
          "A fisherman's greedy wife keeps demanding bigger wishes from a magic fish until she asks too much and they lose it all.",
        ),
        u('one line only'),
      ],
    ],
    [
      'summarize',
      [
        u(
          "Can you shorten this paragraph for my slides? 'Our customer satisfaction survey, which was completed by over 2,000 respondents, revealed that the majority of users found the onboarding process confusing, particularly the account verification step.'",
        ),
        a('Survey (2,000+ users): onboarding is confusing, especially account verification.'),
        u(
          "thanks, now the next slide: 'Users also requested more payment options, with Apple Pay and PayPal mentioned most frequently.'",
        ),
      ],
    ],
    [
      'summarize',
      [
        u(
          "Summarize this contract section: 'Either party may terminate this agreement with 30 days written notice. Upon termination, all outstanding invoices become due immediately and confidential materials must be returned.'",
        ),
        a(
          "Either side can end it with 30 days' written notice; unpaid invoices are then due at once and confidential materials must be returned.",
        ),
        u('shorter, for a non-lawyer'),
      ],
    ],
    [
      'summarize',
      [
        u("I'm going to paste a long chat log, can you summarize it for me?"),
        a("Sure, paste it and I'll summarize it."),
        u(
          "Ana: are we still on for Friday? Ben: can't, my car broke down. Ana: I can pick you up. Ben: great, 7pm? Ana: deal.",
        ),
      ],
    ],
    // general
    [
      'general',
      [
        u("What's the best time of year to visit Iceland?"),
        a(
          'June to August for the midnight sun and open roads; September to March for the northern lights.',
        ),
        u('and how many days do I need?'),
      ],
    ],
    [
      'general',
      [
        u('How do I get rid of fruit flies in my kitchen?'),
        a(
          'Remove ripe fruit, take out the rubbish, and set a trap with cider vinegar and a drop of washing-up liquid.',
        ),
        u('they keep coming back though'),
      ],
    ],
    [
      'general',
      [
        u('Can you recommend a board game for 4 adults?'),
        a('Try Codenames, Ticket to Ride or Wingspan.'),
        u('tell me more about the second one'),
      ],
    ],
    [
      'general',
      [
        u('Is it better to stretch before or after running?'),
        a('Dynamic stretches before, static stretches after.'),
        u('examples?'),
      ],
    ],
    [
      'general',
      [
        u('Who was Marie Curie?'),
        a(
          'A physicist and chemist who pioneered research on radioactivity and won two Nobel Prizes.',
        ),
        u('which two?'),
      ],
    ],
    [
      'general',
      [
        u('How long can cooked rice stay in the fridge?'),
        a('About 3 to 4 days, if it was cooled quickly.'),
        u('and in the freezer?'),
      ],
    ],
    [
      'general',
      [
        u('What should I look for when buying a used car?'),
        a(
          'Service history, rust, tyre wear, warning lights, and a test drive that includes the motorway.',
        ),
        u('anything else?'),
      ],
    ],
    [
      'general',
      [
        u('How come leaves turn yellow and red in the fall?'),
        a(
          'Chlorophyll breaks down, revealing yellow and orange pigments; the reds come from anthocyanins made in autumn.',
        ),
        u('why are some trees redder than others then'),
      ],
    ],
    [
      'general',
      [
        u('Good podcasts about true crime?'),
        a('Serial, Casefile and Criminal are popular choices.'),
        u('something less dark?'),
      ],
    ],
    [
      'general',
      [
        u('My cat keeps scratching the sofa.'),
        a(
          'Give her a tall, sturdy scratching post next to the sofa and reward her when she uses it.',
        ),
        u('she ignores it'),
      ],
    ],
    [
      'general',
      [
        u("What's the difference between a virus and a bacterium?"),
        a(
          'Bacteria are living single cells; viruses need a host cell to reproduce. Antibiotics only work on bacteria.',
        ),
        u("so antibiotics won't help with the flu?"),
      ],
    ],
    // the last message switches topic: the new topic is the label
    [
      'translate',
      [
        u('Write a Python function that reverses the words in a sentence.'),
        a("def reverse_words(s): return ' '.join(s.split()[::-1])"),
        u("thanks. unrelated: how do you say 'see you soon' in Italian?"),
      ],
    ],
    [
      'creative',
      [
        u("What's 7 factorial?"),
        a('5040.'),
        u('cool. now write me a short poem about the number seven'),
      ],
    ],
    [
      'code',
      [
        u("Translate 'error' into French."),
        a("'Erreur.'"),
        u(
          "ok now help me debug this: my Node app says 'Cannot find module express' even though I installed it",
        ),
      ],
    ],
    [
      'math',
      [
        u("What's a good breakfast before an exam?"),
        a('Oats, eggs or yogurt with fruit: slow energy, not too heavy.'),
        u('thanks! also, for the exam itself: how do I solve 3x - 7 = 2x + 5?'),
      ],
    ],
    [
      'summarize',
      [
        u('Write a haiku about snow.'),
        a('Silent flakes falling / the city forgets its noise / footprints fill with white'),
        u(
          "nice. different thing: give me the gist of this: 'Train services on the northern line will be replaced by buses this weekend due to track maintenance. Journeys may take up to 40 minutes longer.'",
        ),
      ],
    ],
    [
      'general',
      [
        u(
          "Summarize: 'The museum will close for renovation from May to October. Online exhibits remain available.'",
        ),
        a('The museum closes from May to October for renovation; online exhibits stay available.'),
        u("by the way, what's the most visited museum in the world?"),
      ],
    ],
    [
      'math',
      [
        u('How do I round a number to 2 decimals in JavaScript?'),
        a('Number(x.toFixed(2)), or Math.round(x * 100) / 100.'),
        u(
          "unrelated, but what's the probability of getting at least one six in four rolls of a die?",
        ),
      ],
    ],
    [
      'translate',
      [
        u("What's a typical dish in Portugal?"),
        a('Bacalhau, salted cod, cooked in countless ways.'),
        u('how do I ask for the bill in Portuguese when I get there?'),
      ],
    ],
    [
      'code',
      [
        u("What's the sum of the integers from 1 to 100?"),
        a("5050, by Gauss's formula n(n+1)/2."),
        u('now write that as a C function that takes n and returns the sum'),
      ],
    ],
    [
      'creative',
      [
        u("How do you say 'moon' in Spanish?"),
        a("'Luna.'"),
        u('write me a short love poem in English for a girl named Luna'),
      ],
    ],
    [
      'code',
      [
        u(
          "Shorten this: 'Please be informed that the meeting scheduled for Monday has been postponed until further notice.'",
        ),
        a("Monday's meeting is postponed until further notice."),
        u("thx. switching gears, how do I make a git alias for 'git log --oneline --graph'?"),
      ],
    ],
    [
      'general',
      [
        u('Write a funny slogan for a gym.'),
        a("'Sweat now, brag later.'"),
        u('ok, serious question now: how many times a week should a beginner go to the gym?'),
      ],
    ],
    [
      'summarize',
      [
        u('Is it normal for a cat to sleep 16 hours a day?'),
        a('Yes, adult cats sleep 12 to 16 hours a day.'),
        u(
          "good to know. can you summarise this vet letter for me: 'Milo's bloodwork is normal. His weight is slightly high; reduce treats and recheck in three months. Vaccinations are due in June.'",
        ),
      ],
    ],
    [
      'creative',
      [
        u("What does 'git stash' do?"),
        a(
          'It saves your uncommitted changes and cleans the working tree; git stash pop brings them back.',
        ),
        u('lol. write me a sad little poem about losing my stashed changes forever'),
      ],
    ],
    [
      'translate',
      [
        u("What's 15 squared?"),
        a('225.'),
        u("how do you say 'two hundred twenty-five' in German?"),
      ],
    ],
  ],
};
