// Hand-written by the third independent writer. No generator, template or paraphraser was used.
import { thirdAssistant6 } from './assistant6.mjs';

import { a, u } from '../turns.mjs';

export const conversationsThird = {
  name: 'third-writer-conversations',
  about:
    'Hand-typed multi-turn conversations, 10 per route, labelled with the route that should handle the last user message; most end in a follow-up that needs the earlier turns, some switch topic at the end.',
  routes: thirdAssistant6.routes,
  conversations: [
    // ---------- code ----------
    [
      'code',
      [
        u('Write a Python function that checks if a string is a palindrome'),
        a('def is_palindrome(s):\n    s = s.lower()\n    return s == s[::-1]'),
        u('and in Rust?'),
      ],
    ],
    [
      'code',
      [
        u('How do I read a file line by line in Go?'),
        a(
          'Use bufio.Scanner: scanner := bufio.NewScanner(f); for scanner.Scan() { line := scanner.Text() }',
        ),
        u('what if the lines are longer than 64k'),
      ],
    ],
    [
      'code',
      [
        u('my react component re-renders forever when I call setState inside useEffect'),
        a(
          'That happens when the effect has no dependency array, so it runs after every render. Add [] or the specific values it depends on.',
        ),
        u('i added [] and now it never updates when props change'),
        a('Then put the prop in the array: useEffect(() => { ... }, [props.userId]).'),
        u('ok that fixed it, but why does eslint still complain'),
      ],
    ],
    [
      'code',
      [
        u(
          'Give me a SQL query that counts orders per month from an orders table with a created_at column',
        ),
        a(
          "SELECT date_trunc('month', created_at) AS month, COUNT(*) FROM orders GROUP BY 1 ORDER BY 1;",
        ),
        u("that's postgres right? we use mysql"),
      ],
    ],
    [
      'code',
      [
        u('Can you explain what this does: [x for x in data if x % 2 == 0]'),
        a('It builds a new list containing only the even numbers from data.'),
        u('rewrite it with filter and lambda'),
      ],
    ],
    [
      'code',
      [
        u(
          'Write a bash script that backs up my ~/projects folder to /mnt/backup with the date in the file name',
        ),
        a('tar -czf /mnt/backup/projects-$(date +%F).tar.gz ~/projects'),
        u('now make it delete backups older than 30 days'),
      ],
    ],
    [
      'code',
      [
        u('What is a good laptop for a student?'),
        a(
          'For most students a mid-range ultrabook with 16 GB of RAM, like a MacBook Air or a ThinkPad X1, is plenty.',
        ),
        u(
          'thanks. different question: how do I install python on a mac without breaking the system one',
        ),
      ],
    ],
    [
      'code',
      [
        u('what is the sum of the first 100 integers'),
        a('5050, using n(n+1)/2.'),
        u('nice, can you write me a JavaScript function that does that for any n'),
      ],
    ],
    [
      'code',
      [
        u('how do you say "error" in Spanish?'),
        a('"Error" - it is the same word, pronounced eh-RROR.'),
        u(
          'haha ok. also my node app throws "ECONNREFUSED 127.0.0.1:5432" on startup, what does it mean?',
        ),
      ],
    ],
    [
      'code',
      [
        u('I need a regex that matches a US zip code, 5 digits or 5+4'),
        a('^\\d{5}(-\\d{4})?$'),
        u(
          'Great. How would I use that in a Java String.matches call, do I need double backslashes?',
        ),
      ],
    ],

    // ---------- math ----------
    ['math', [u('What is 20% of 85?'), a('17.'), u('ok now for 15%')]],
    [
      'math',
      [
        u('Convert 5 miles to kilometers'),
        a('5 miles is about 8.05 km.'),
        u('now the other way round, 5 km'),
      ],
    ],
    ['math', [u('Solve 2x + 3 = 11'), a('x = 4.'), u('why?')]],
    [
      'math',
      [
        u('A bag has 3 red and 5 blue marbles. What is the probability of drawing a red one?'),
        a('3/8, or 37.5%.'),
        u('and if I draw two without putting the first back, both red?'),
      ],
    ],
    [
      'math',
      [
        u('what is the derivative of x^3'),
        a('3x^2'),
        u('and the second derivative'),
        a('6x'),
        u('now integrate the original one'),
      ],
    ],
    [
      'math',
      [
        u('I invest $2,000 at 5% interest compounded yearly. How much do I have after 3 years?'),
        a('$2,315.25.'),
        u('what about 10 years'),
      ],
    ],
    [
      'math',
      [
        u('write a short poem about numbers'),
        a(
          'One stands alone, two makes a pair,\nthree is a crowd upon the stair,\nfour builds a house, five counts the hand,\nsix rolls the dice across the land.',
        ),
        u("cute. btw what's the lcm of 12 and 18"),
      ],
    ],
    [
      'math',
      [
        u('How do I round a float to 2 decimals in Python?'),
        a('round(x, 2), or f"{x:.2f}" if you just need it for display.'),
        u(
          'unrelated, my stats homework: mean is 50, sd is 10, what percent of values fall between 40 and 60 in a normal distribution',
        ),
      ],
    ],
    [
      'math',
      [
        u('Can you help me with geometry homework?'),
        a("Sure, what's the problem?"),
        u('A triangle has sides 7, 24 and 25. Is it a right triangle, and what is its area?'),
      ],
    ],
    [
      'math',
      [
        u('I need to check my math on a loan'),
        a('Happy to help. What are the amount, rate and term?'),
        u('$15,000 at 7% for 5 years, what is the monthly payment?'),
        a('About $297 per month.'),
        u('So how much interest do I pay in total over those five years?'),
      ],
    ],

    // ---------- creative ----------
    [
      'creative',
      [
        u('Write a haiku about the ocean'),
        a('Salt wind on my face\nwaves fold into silver lace\nthe tide keeps its pace'),
        u('do it again but funnier'),
      ],
    ],
    [
      'creative',
      [
        u('Tell me a joke about programmers'),
        a('Why do programmers prefer dark mode? Because light attracts bugs.'),
        u('another one'),
      ],
    ],
    [
      'creative',
      [
        u('Give me a slogan for my plant shop called Leaf It To Us'),
        a('"Leaf It To Us - we grow, you glow."'),
        u('more options, less cheesy'),
      ],
    ],
    [
      'creative',
      [
        u('Write the first line of a fantasy novel'),
        a('The night the third moon cracked, every well in Ostreval ran red.'),
        u('continue'),
        a(
          'By dawn the priests had barred the temple doors, and Ilsa, who had drawn water before sunrise, was the only one in the village who had not yet drunk.',
        ),
        u('keep going, make Ilsa meet someone'),
      ],
    ],
    [
      'creative',
      [
        u("Write a four-line poem for my mom's birthday"),
        a(
          'You taught me how to tie my shoes,\nto laugh when I had things to lose,\nand every year you shine anew -\nhappy birthday, Mom, I love you.',
        ),
        u('make it shorter'),
      ],
    ],
    [
      'creative',
      [
        u("You are a pirate captain. I'm a new deckhand. Greet me."),
        a(
          "Arr, so ye be the landlubber the tide dragged in! Grab a mop, and don't let me catch ye near the rum.",
        ),
        u('aye captain, where are we sailing?'),
      ],
    ],
    [
      'creative',
      [
        u('What do otters eat?'),
        a('Mostly fish, plus crabs, clams, sea urchins and frogs, depending on the species.'),
        u('aww. write me a short lullaby about an otter'),
      ],
    ],
    [
      'creative',
      [
        u(
          'Summarize: The meeting was moved to Friday because the client is traveling. We still need the slides by Thursday.',
        ),
        a('Meeting moved to Friday (client traveling); slides still due Thursday.'),
        u('thanks. now write a silly limerick about the client who is always traveling'),
      ],
    ],
    [
      'creative',
      [
        u('what does git stash do'),
        a(
          'It saves your uncommitted changes on a stack and resets the working directory, so you can reapply them later with git stash pop.',
        ),
        u('lol my life in a nutshell. write a sad country song about losing uncommitted changes'),
      ],
    ],
    [
      'creative',
      [
        u('I want to write a story for my niece, can you help?'),
        a('Of course! Are there any characters or themes she likes?'),
        u(
          "She loves unicorns and soccer. Write a short story where a unicorn joins a girls' soccer team.",
        ),
      ],
    ],

    // ---------- translate ----------
    [
      'translate',
      [
        u('How do you say "where is the train station" in Italian?'),
        a('"Dov\'è la stazione dei treni?"'),
        u('and in portuguese?'),
      ],
    ],
    [
      'translate',
      [
        u('Translate "I love you" to French'),
        a('"Je t\'aime."'),
        u('what about german'),
        a('"Ich liebe dich."'),
        u('and dutch, and is it the same for family or only romantic'),
      ],
    ],
    [
      'translate',
      [
        u('Translate this into Spanish: The package will arrive on Monday.'),
        a('"El paquete llegará el lunes."'),
        u('more formal please'),
      ],
    ],
    [
      'translate',
      [
        u('What does "Wanderlust" mean?'),
        a('It is a German loanword meaning a strong desire to travel and explore the world.'),
        u('is there a japanese word like that?'),
      ],
    ],
    [
      'translate',
      [
        u('Translate to English: "Hace mucho frío hoy, no quiero salir."'),
        a('"It\'s very cold today, I don\'t want to go out."'),
        u('now the other way round: "I want to stay in bed all day"'),
      ],
    ],
    [
      'translate',
      [
        u('How do you write "thank you for your help" in Korean?'),
        a('"도와주셔서 감사합니다" (dowajusyeoseo gamsahamnida).'),
        u('is that polite enough for my boss?'),
      ],
    ],
    [
      'translate',
      [
        u('write a two-line poem about rain'),
        a('Rain taps the glass like a patient friend,\nasking softly when the grey will end.'),
        u('beautiful, can you put it into french for my girlfriend'),
      ],
    ],
    [
      'translate',
      [
        u('What is the best time to visit Lisbon?'),
        a(
          'Spring (April to June) or early autumn (September to October): warm, sunny and fewer crowds than in summer.',
        ),
        u('also what does "obrigada" mean, I keep hearing it'),
      ],
    ],
    [
      'translate',
      [
        u('I need to translate some short phrases into German for a trip'),
        a('Sure, send them over.'),
        u('"Can I pay by card?" and "Where is the toilet?"'),
      ],
    ],
    [
      'translate',
      [
        u('Translate "good luck with your exam" into Russian'),
        a('"Удачи на экзамене!"'),
        u('Could you also give me the Russian for "I believe in you"?'),
      ],
    ],

    // ---------- summarize ----------
    [
      'summarize',
      [
        u(
          'Summarize this: Our Q2 sales rose 12% thanks to the new product line, but shipping costs ate most of the profit. We plan to renegotiate with carriers in Q3.',
        ),
        a(
          'Sales up 12% in Q2 from the new line, but shipping costs cut profit; carriers will be renegotiated in Q3.',
        ),
        u('even shorter'),
      ],
    ],
    [
      'summarize',
      [
        u(
          'Can you give me the key points of this? Most adults need seven to nine hours of sleep. Screens in the hour before bed delay sleep onset because of light and stimulation. Research suggests a consistent wake-up time matters more than a fixed bedtime.',
        ),
        a(
          '- Adults need 7-9 hours.\n- Screens before bed delay sleep.\n- A consistent wake time matters more than bedtime.',
        ),
        u('now as one sentence'),
      ],
    ],
    [
      'summarize',
      [
        u(
          'tl;dr: The city will close Main Street from June 3 to June 17 for water pipe repairs. Buses 4 and 9 will be rerouted via Oak Avenue. Residents can still access their driveways.',
        ),
        a(
          'Main Street closed June 3-17 for pipe repairs; buses 4 and 9 rerouted via Oak Ave; driveway access kept.',
        ),
        u(
          'there was a second paragraph I forgot: Businesses on Main Street may apply for a one-time compensation grant of up to $2,000 by July 1.',
        ),
      ],
    ],
    [
      'summarize',
      [
        u(
          'Make a summary of these notes: - budget approved - hire 2 devs - launch moved to Oct - Anna leads marketing',
        ),
        a(
          'Budget approved, two developers to hire, launch moved to October, and Anna will lead marketing.',
        ),
        u(
          'ok and these too: - office move postponed - new coffee machine arrives monday - friday demos start next week',
        ),
      ],
    ],
    [
      'summarize',
      [
        u('Summarize the plot of Romeo and Juliet'),
        a(
          'Two young lovers from feuding families in Verona marry in secret; a chain of misunderstandings leads to both of their deaths, which finally reconciles the families.',
        ),
        u('in 10 words'),
      ],
    ],
    [
      'summarize',
      [
        u('what does this error mean: ModuleNotFoundError: No module named requests'),
        a(
          "The requests package isn't installed in the active environment. Run pip install requests.",
        ),
        u(
          'fixed, thanks. separate thing, can you condense this email for me: Hi team, as discussed we will move the quarterly review to the 14th, the venue stays the same, and lunch will be provided. Please send your slides to Mark by the 12th at the latest.',
        ),
      ],
    ],
    [
      'summarize',
      [
        u('translate "Die Sitzung wurde verschoben" to english'),
        a('"The meeting was postponed."'),
        u(
          'ok and give me the gist of this report in 2 lines: Customer complaints fell 30% after the new help center launched, though response time for phone calls worsened slightly. Staff recommend adding two agents during peak hours.',
        ),
      ],
    ],
    [
      'summarize',
      [
        u('who wrote 1984?'),
        a('George Orwell; it was published in 1949.'),
        u('can you give me a short summary of the book for a school report'),
      ],
    ],
    [
      'summarize',
      [
        u('I have a long article about electric cars, can you summarize it if I paste it?'),
        a('Sure, paste it in.'),
        u(
          'Here: Electric car sales grew 35% last year, driven by falling battery prices and new tax credits. Charging infrastructure is still patchy in rural areas, and some buyers worry about resale value. Analysts expect price parity with petrol cars by 2027.',
        ),
      ],
    ],
    [
      'summarize',
      [
        u(
          'Summarize this review: The hotel was clean and the staff friendly, but the walls were thin and breakfast was overpriced.',
        ),
        a('Clean hotel with friendly staff; downsides were thin walls and a pricey breakfast.'),
        u(
          'Now give me a one-line summary of this second review too: Great location near the beach, rooms a bit dated, wifi kept dropping, would still stay again.',
        ),
      ],
    ],

    // ---------- general ----------
    [
      'general',
      [
        u('What is the tallest mountain in Africa?'),
        a('Mount Kilimanjaro in Tanzania, at about 5,895 m.'),
        u('and in south america?'),
      ],
    ],
    [
      'general',
      [
        u('Can you recommend a sci-fi book?'),
        a(
          'Try "The Left Hand of Darkness" by Ursula K. Le Guin, or "Project Hail Mary" by Andy Weir for something lighter.',
        ),
        u('what about the second one, is it ok for a teenager?'),
      ],
    ],
    [
      'general',
      [
        u('Should I store tomatoes in the fridge?'),
        a(
          "Ideally no: cold makes them mealy and dulls the flavour. Keep them at room temperature until ripe, and refrigerate only if they're about to go off.",
        ),
        u('how come though'),
      ],
    ],
    [
      'general',
      [
        u('Who painted the Mona Lisa?'),
        a('Leonardo da Vinci, in the early 1500s.'),
        u('where can i see it'),
      ],
    ],
    [
      'general',
      [
        u('Is it better to run in the morning or the evening?'),
        a(
          'Both work. Morning runs are easier to keep as a habit; evening runs often feel stronger because your body is warmed up.',
        ),
        u('ok and what should i eat before'),
      ],
    ],
    [
      'general',
      [
        u("What's a good gift for a 10 year old boy?"),
        a('LEGO sets, a good adventure book series, or a board game like Ticket to Ride.'),
        u('he already has lego'),
        a('Then maybe a science kit, a scooter, or a walkie-talkie set.'),
        u("he's really into space stuff"),
        a('A beginner telescope or a build-your-own solar system model would be great.'),
        u('how much does the first one usually cost'),
      ],
    ],
    [
      'general',
      [
        u('what is 12 times 12'),
        a('144.'),
        u('thanks. by the way do you know why a dozen is 12 and not 10?'),
      ],
    ],
    [
      'general',
      [
        u('write a short poem about the moon'),
        a('Pale coin in the pocket of night,\nyou spend yourself slowly in light.'),
        u('nice. is it true the moon is moving away from the earth?'),
      ],
    ],
    [
      'general',
      [
        u("I'm going hiking in Scotland next week"),
        a('Sounds great! Any questions about gear or routes?'),
        u('What should I pack for rain and midges?'),
      ],
    ],
    [
      'general',
      [
        u('hi!'),
        a('Hi! How can I help you today?'),
        u('not much, just wanted to chat. how is your day going?'),
      ],
    ],
  ],
};
