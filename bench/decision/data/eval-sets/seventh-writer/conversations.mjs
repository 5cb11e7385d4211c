// Hand-written multi-turn evaluation set. Each label is the route for the LAST user
// message, read in the context of the conversation before it.

import { seventhAssistant6 } from './assistant6.mjs';

import { a, u } from '../turns.mjs';

export const conversationsSeventh = {
  name: 'seventh-writer-conversations',
  about:
    'Sixty hand-written conversations with older, non-technical users and a few teenagers; most end with a follow-up that is ambiguous on its own, some switch topic in the last message, the rest are plain multi-turn.',
  routes: seventhAssistant6.routes,
  conversations: [
    // ---------------- code ----------------
    [
      'code',
      [
        u(
          "How do I add up a column in Excel? It's my household bills, in column B from row 2 to row 30.",
        ),
        a(
          'Click in the cell just below your figures, B31, type =SUM(B2:B30) and press Enter. The total will appear and it updates by itself if you change any figure.',
        ),
        u('and what if I only want the ones over £50?'),
      ],
    ],
    [
      'code',
      [
        u(
          'Could you write a simple web page for our bridge club with our name, the meeting times and a phone number?',
        ),
        a(
          'Of course. Here is a basic page you can paste in:\n\n<!DOCTYPE html>\n<html>\n<head><title>Ashford Bridge Club</title></head>\n<body>\n<h1>Ashford Bridge Club</h1>\n<p>We meet Tuesdays and Thursdays, 2pm to 5pm, at the Memorial Hall.</p>\n<p>Call Jean on 01234 567890.</p>\n</body>\n</html>',
        ),
        u('Lovely, thank you. Can you make the heading blue and put it in the middle?'),
      ],
    ],
    [
      'code',
      [
        u(
          "My grandson's Python program says NameError: name 'prnt' is not defined. He's gone home and I promised I'd try to fix it.",
        ),
        a(
          "That's just a spelling slip: 'prnt' should be 'print'. Python doesn't recognise the word, so it stops. Find that line, correct the spelling, save the file and run it again.",
        ),
        u(
          "Fixed that, thank you! Now there's another one on line 12, is it the same sort of thing?",
        ),
      ],
    ],
    [
      'code',
      [
        u(
          "I need a formula in Google Sheets to show how many days until each member's subscription runs out. The renewal dates are in column D.",
        ),
        a(
          'In E2 type =D2-TODAY() and copy it down the column. It shows the number of days left; a negative number means the subscription has already expired.',
        ),
        u('Some of them show as dates instead of numbers, like 14/01/1900.'),
        a(
          "That's only the formatting. Select column E, go to Format > Number > Number, and they will show as plain numbers of days.",
        ),
        u("Brilliant. And can it go red when it's under 30?"),
      ],
    ],
    [
      'code',
      [
        u(
          "What does this mean on my screen: Error 404 page not found? It's on the club website I look after.",
        ),
        a(
          "It means the address you clicked doesn't lead to a page that exists any more. Usually a page has been renamed or deleted, or a link has a typing mistake in it. Check that the link in your menu matches the page's actual address.",
        ),
        u("I don't understand, could you explain again more simply?"),
      ],
    ],
    [
      'code',
      [
        u(
          'Can you write a little Python script that picks a random winner from a list of names for our raffle?',
        ),
        a(
          "Certainly:\n\nimport random\nnames = ['Ann', 'Bill', 'Carol', 'Dev']\nprint('The winner is', random.choice(names))\n\nReplace the names with your own and run it.",
        ),
        u('how do I make it pick three winners instead?'),
      ],
    ],
    [
      'code',
      [
        u("What's the best way to back up my photos? I've got thousands from the grandchildren."),
        a(
          'A good approach is to keep two copies: one on an external hard drive and one in a cloud service such as Google Photos or iCloud. That way, if the laptop fails, nothing is lost.',
        ),
        u(
          'Thanks. I keep a spreadsheet of the photo names and the dates are stored as text like 2019-06-14. How do I turn them into proper dates with a formula?',
        ),
      ],
    ],
    [
      'code',
      [
        u("Write a short poem for my sister's retirement from nursing."),
        a(
          'Forty years of gentle hands,\nof night shifts, tea and care;\nnow rest, dear sister, take your time,\nthe world is yours to share.',
        ),
        u(
          "That's beautiful. On another matter, my Excel keeps showing ##### in one of the cells, what's wrong with it?",
        ),
      ],
    ],
    [
      'code',
      [
        u("I'm trying to learn HTML from a library book. What does the <p> tag do?"),
        a(
          'The <p> tag marks a paragraph. Anything between <p> and </p> is shown as a block of text with a little space above and below it.',
        ),
        u("And what's the difference between <br> and <p>? The book doesn't explain it well."),
      ],
    ],
    [
      'code',
      [
        u("What's 12.5% of £340?"),
        a('12.5% of £340 is £42.50.'),
        u(
          "Different question: what's the formula in Excel to take 12.5% off every price in column C?",
        ),
      ],
    ],

    // ---------------- math ----------------
    [
      'math',
      [
        u(
          'My shortbread recipe makes 16 pieces with 300g flour, 200g butter and 100g sugar. How much do I need for 40 pieces?',
        ),
        a(
          'Multiply everything by 2.5: 750g flour, 500g butter and 250g sugar. That will give you 40 pieces.',
        ),
        u('what about for 60?'),
      ],
    ],
    [
      'math',
      [
        u('If I save £150 a month at 4% interest, how much will I have in 5 years?'),
        a(
          'Roughly £9,950. You pay in £9,000 yourself and earn about £950 in interest, assuming the interest is added monthly.',
        ),
        u('And if I put in £200 instead?'),
      ],
    ],
    [
      'math',
      [
        u(
          "My granddaughter's homework says a train leaves at 9:45 and arrives at 13:20. How long is the journey?",
        ),
        a(
          'From 9:45 to 13:45 would be exactly 4 hours, but it arrives 25 minutes before that, so the journey is 3 hours 35 minutes.',
        ),
        u("I don't understand, can you explain it another way? She's only 9."),
      ],
    ],
    [
      'math',
      [
        u(
          'The pattern for a baby cardigan says cast on 64 stitches for 0-3 months. I want to make it for 6-12 months, which is about 15% bigger. How many should I cast on?',
        ),
        a(
          "64 × 1.15 = 73.6, so about 74 stitches. If the pattern has a 2-stitch rib, 74 works; if it's a 4-stitch pattern, go up to 76.",
        ),
        u("and for the sleeves, they're 40 stitches?"),
      ],
    ],
    [
      'math',
      [
        u("A sofa is £899 and there's 25% off this weekend. What's the price?"),
        a('25% of £899 is £224.75, so you would pay £674.25.'),
        u('They also say I can pay it over 12 months interest free.'),
        a('Then each monthly payment would be £674.25 ÷ 12, which is about £56.19.'),
        u("what if it's 18 months?"),
      ],
    ],
    [
      'math',
      [
        u("How much is my pension going up if it's £9,800 a year and rises by 8.5%?"),
        a('8.5% of £9,800 is £833, so your new pension would be £10,633 a year.'),
        u('so how much is that a week?'),
      ],
    ],
    [
      'math',
      [
        u(
          "Can you summarise this bit from my energy letter: 'Your direct debit will increase from £96 to £118 per month from 1 January to reflect the change in the price cap and your estimated annual usage.'",
        ),
        a(
          'In short: from 1 January your monthly payment goes up from £96 to £118, because energy prices and your expected usage have changed.',
        ),
        u('So how much more is that over a whole year?'),
      ],
    ],
    [
      'math',
      [
        u("How do I say 'how much does this cost' in French?"),
        a("'Combien ça coûte ?', said roughly as 'kom-byan sa koot'."),
        u(
          'Thanks. Also a quick sum: if something costs 45 euros and the rate is 1.17 euros to the pound, how many pounds is that?',
        ),
      ],
    ],
    [
      'math',
      [
        u('What is 7 times 8? My grandson says 54.'),
        a(
          "7 × 8 is 56, so he's close but not quite. A handy trick is to count 5, 6, 7, 8: 56 = 7 × 8.",
        ),
        u('And 6 times 9? He got that wrong too I think.'),
      ],
    ],
    [
      'math',
      [
        u("My granddaughter is coming to stay and she's vegetarian now. What can I cook for her?"),
        a(
          'A few easy ideas: vegetable lasagne, a cheese and leek pie, mushroom risotto or a mild chickpea curry. Most children like a homemade margherita pizza too.',
        ),
        u(
          "I'll do the lasagne for 9 of us, but my recipe serves 4 with 500g of pasta sheets. How many grams will I need?",
        ),
      ],
    ],

    // ---------------- creative ----------------
    [
      'creative',
      [
        u(
          'Could you write a short birthday poem for my grandson Jack who is turning 10 and loves football?',
        ),
        a(
          "Ten today, our Jack's the man,\nthe finest football-crazy fan;\nhe dribbles past the garden shed\nand dreams of goals when tucked in bed!",
        ),
        u('thank you, could you make it a bit longer and mention his dog Max'),
      ],
    ],
    [
      'creative',
      [
        u(
          "I have to give a little speech at my sister's 70th. Can you help? She's a retired teacher and a keen gardener.",
        ),
        a(
          "Here's a start: 'Seventy years ago the world gained a teacher, a gardener and the bossiest big sister anyone could wish for. She taught hundreds of children their times tables, and she taught me that weeds are just flowers in the wrong place...'",
        ),
        u('can you make it shorter for me, I get nervous'),
      ],
    ],
    [
      'creative',
      [
        u('Write a limerick about my husband falling asleep in front of the telly.'),
        a(
          "There once was a fellow called Ted\nwho never quite made it to bed;\nwith the remote in his hand\nhe'd drift off to dreamland\nand snore through the news being read.",
        ),
        u('Ha! Can you do another one about me and how long I spend on the phone?'),
      ],
    ],
    [
      'creative',
      [
        u(
          'My granddaughter Lily asks me for a story every night on the video call. Could you write one about a mouse who lives in a library?',
        ),
        a(
          'Once upon a time, in a quiet corner of Bramble Library, lived a little mouse called Pip who loved books even more than cheese. Every night, when the librarian switched off the lights, Pip climbed onto the shelves and read by moonlight...',
        ),
        u('She loved it! Could Pip go on an adventure to the seaside next?'),
        a(
          'Of course. One sunny morning, Pip found a postcard tucked inside a book about the sea. It showed golden sand and bright blue waves, and Pip decided there and then to go and see it for himself...',
        ),
        u('Lovely, and could you make it rhyme this time?'),
      ],
    ],
    [
      'creative',
      [
        u(
          'Could you help me write something for the card going with the flowers to my friend whose husband has died?',
        ),
        a(
          "Perhaps: 'Dear Anne, thinking of you with so much love. Ron was a true gentleman and he will be deeply missed. I'm here whenever you need me, for a cup of tea, a walk or just a chat.'",
        ),
        u("That's nice but a bit more formal please, I don't know her that well"),
      ],
    ],
    [
      'creative',
      [
        u('We need a name for our new garden club. It meets in the village hall in Penrith.'),
        a(
          'Some ideas: The Penrith Petals, Hall & Hedgerow, Green Fingers of Penrith, Seeds & Saucers, or The Thursday Diggers.',
        ),
        u('ooh more like the second one please'),
      ],
    ],
    [
      'creative',
      [
        u("Why won't my spreadsheet formula =A2*B2 work? It just shows the formula as text."),
        a(
          'The cell is probably formatted as Text. Select it, change the format to General or Number, then click in the cell, press F2 and then Enter. It should calculate.',
        ),
        u(
          "That did it, thank you. Anyway, it's my friend's 80th on Saturday, could you write her a little funny verse about turning eighty?",
        ),
      ],
    ],
    [
      'creative',
      [
        u('What flowers are good for bees?'),
        a(
          "Bees love lavender, foxgloves, borage, catmint, single-flowered dahlias and anything in the daisy family. Avoid double flowers, as the bees can't reach the pollen.",
        ),
        u(
          'Write me a short poem about a bee visiting my lavender, for the garden club newsletter.',
        ),
      ],
    ],
    [
      'creative',
      [
        u(
          "I'm 15 and I need to write a poem for English about the sea. Can you give me some ideas?",
        ),
        a(
          'You could write about the sea as a person with moods, a memory from a beach holiday, or a storm seen from a lighthouse. Try focusing on sounds and colours rather than just what it looks like.',
        ),
        u('Can you write the first verse of the storm one so I can see how it might go?'),
      ],
    ],
    [
      'creative',
      [
        u("How do you say 'happy anniversary' in Italian?"),
        a("'Buon anniversario!'"),
        u(
          'Grazie! Now could you write a little romantic verse for the card, in English, about 30 years together?',
        ),
      ],
    ],

    // ---------------- translate ----------------
    [
      'translate',
      [
        u("How do I say 'good morning, a coffee with milk please' in Spanish?"),
        a("'Buenos días, un café con leche, por favor.'"),
        u('and in Italian?'),
      ],
    ],
    [
      'translate',
      [
        u(
          'Could you translate this postcard from my German friend? Liebe Grüße aus München! Das Wetter ist herrlich und wir trinken viel Bier.',
        ),
        a(
          "It says: 'Warm greetings from Munich! The weather is wonderful and we are drinking lots of beer.'",
        ),
        u("Ha! How would I write back 'lucky you, it's raining here'?"),
      ],
    ],
    [
      'translate',
      [
        u("We're going to Crete in September. What are some basic Greek phrases I should know?"),
        a(
          'Hello: Yia sas. Thank you: Efharistó. Please: Parakaló. Yes: Ne. No: Óhi. The bill please: To logariasmó, parakaló.',
        ),
        u("Very helpful. How do I say 'I don't eat meat'?"),
        a("'Den tróo kréas.'"),
        u("and how about 'my wife is allergic to shellfish'?"),
      ],
    ],
    [
      'translate',
      [
        u("Translate 'take one tablet twice a day with food' into Polish for my carer please."),
        a("'Przyjmować jedną tabletkę dwa razy dziennie z jedzeniem.'"),
        u('Could you write how to say it out loud as well?'),
      ],
    ],
    [
      'translate',
      [
        u(
          "My cousin's letter from Portugal says 'Estamos todos com saudades tuas.' What does it mean?",
        ),
        a(
          "It means 'We all miss you.' Saudades is a lovely word for a deep longing for someone who is far away.",
        ),
        u('And how do I reply that I miss them too?'),
      ],
    ],
    [
      'translate',
      [
        u("What does 'entrecôte, pommes frites, sauce béarnaise' mean on the menu?"),
        a(
          "It's a rib-eye steak with chips and béarnaise sauce, which is a rich butter and egg yolk sauce flavoured with tarragon.",
        ),
        u('what about magret de canard?'),
      ],
    ],
    [
      'translate',
      [
        u("Write a short verse for my friend Carmen's birthday please."),
        a(
          'Carmen dear, another year\nof laughter, love and friends so near;\nmay your day be bright and sweet,\nwith cake and music, dance and treat!',
        ),
        u("Perfect. She's Spanish, can you put it into Spanish for her?"),
      ],
    ],
    [
      'translate',
      [
        u("What's the weather usually like in Lisbon in October?"),
        a(
          'Usually mild and pleasant: around 20 to 22°C in the day, cooler evenings, and a chance of some rain later in the month.',
        ),
        u("How do you say 'excuse me, where is the train station' in Portuguese?"),
      ],
    ],
    [
      'translate',
      [
        u(
          "Could you translate 'Frohe Weihnachten und ein gutes neues Jahr' for me? It's in a card from my neighbour's family.",
        ),
        a("It means 'Merry Christmas and a happy New Year' in German."),
        u("Please translate this one too, it's in the same card: Wir denken oft an euch."),
      ],
    ],
    [
      'translate',
      [
        u(
          "My daughter-in-law is from Vietnam and I want to greet her mother properly when she arrives. How do I say 'nice to meet you'?",
        ),
        a(
          "You could say 'Rất vui được gặp bà', which is polite when speaking to an older woman. Roughly: 'zut vooey duoc gap bah'.",
        ),
        u("And how do I say 'thank you for the delicious food' in Vietnamese?"),
      ],
    ],

    // ---------------- summarize ----------------
    [
      'summarize',
      [
        u(
          "Can you summarise this letter from the housing association? 'Dear Tenant, We are writing to inform you that planned works to replace the windows and external doors at your property will commence in the week beginning 12 May. The works are expected to take two days. A member of our team will contact you to arrange access. Please ensure that window sills are cleared and furniture moved 1 metre away from windows. There is no charge to you for this work.'",
        ),
        a(
          'In short: your windows and outside doors will be replaced free of charge, starting the week of 12 May and taking about two days. Someone will ring to arrange a time. Clear the window sills and move furniture a metre away from the windows.',
        ),
        u('can you make it even shorter so I can stick it on the fridge'),
      ],
    ],
    [
      'summarize',
      [
        u(
          "Please summarise this news article: 'The government has confirmed that the age at which people can claim their state pension will rise from 66 to 67 between 2026 and 2028. Campaigners say the change will hit those in manual jobs hardest, as they are more likely to have health problems in their sixties. Ministers argue the rise is needed because people are living longer and the cost of the state pension is growing.'",
        ),
        a(
          "The state pension age will go up from 66 to 67 between 2026 and 2028. The government says it's because people are living longer; campaigners worry it's unfair on people in physical jobs.",
        ),
        u('could you do it as bullet points instead?'),
      ],
    ],
    [
      'summarize',
      [
        u(
          "My bank sent a long email, can you give me the main points? 'Dear Customer, we are writing to let you know about changes to our service. From 15 March, we will no longer send paper statements unless you request them. Statements will be available in our app and in online banking. If you need paper statements, please call us. We are also closing our branch at 14 High Street, Market Deeping on 30 April. The nearest branch will be in Stamford. You can still use the Post Office for everyday banking.'",
        ),
        a(
          'Two main things: from 15 March, statements will be online only unless you ask for paper ones; and the Market Deeping branch closes on 30 April. The nearest branch will be Stamford, but you can do everyday banking at the Post Office.',
        ),
        u(
          "Thank you. Here's the second part of it: 'Overdraft rates on your current account will change to 39.9% EAR variable. If you do not use an overdraft, this change does not affect you.'",
        ),
        a(
          "This part says the interest charged on overdrafts is changing to 39.9% a year. If you never go overdrawn, it doesn't affect you.",
        ),
        u('so put it all together in three lines for me'),
      ],
    ],
    [
      'summarize',
      [
        u(
          "Could you summarise the minutes from our residents' association meeting? 'Present: 12 residents. Chair welcomed new members from Oak Close. Potholes on Mill Lane reported to council again, no response yet. Christmas lights switch-on agreed for 1 December, volunteers needed for mulled wine stall. Dog fouling on the green remains an issue, new signs to be requested. Treasurer: £640 in account. Next meeting 15 January.'",
        ),
        a(
          'Main points: the potholes on Mill Lane are still unresolved; the Christmas lights switch-on is on 1 December and volunteers are needed for the mulled wine stall; new signs will be requested about dog mess on the green; there is £640 in the account; the next meeting is on 15 January.',
        ),
        u("thank you, shorter please, it's going in a text message"),
      ],
    ],
    [
      'summarize',
      [
        u(
          "My doctor's letter says: 'Blood tests show a mildly raised cholesterol of 6.2 mmol/L and a borderline HbA1c of 44 mmol/mol, consistent with pre-diabetes. We recommend dietary changes, increased physical activity and a repeat test in six months. Medication is not indicated at present.' Can you sum it up for me?",
        ),
        a(
          'In short: your cholesterol is a little high and your blood sugar is borderline, which they call pre-diabetes. No tablets are needed for now; they suggest eating more healthily, being more active and having the test again in six months.',
        ),
        u('can you put that in even simpler words for my husband?'),
      ],
    ],
    [
      'summarize',
      [
        u(
          "Give me the short version of these renewal terms: 'Your policy renews automatically on the anniversary date unless you tell us otherwise. The premium for the coming year is £412.60, an increase of £58.20. Your excess remains £250. Cover for accidental damage is not included unless added as an optional extra.'",
        ),
        a(
          "Your home insurance will renew automatically at £412.60, which is £58.20 more than last year. The excess stays at £250, and accidental damage isn't covered unless you add it.",
        ),
        u('Just the most important bit please'),
      ],
    ],
    [
      'summarize',
      [
        u('Is it worth switching my energy supplier at the moment?'),
        a(
          "It can be, but at the moment many fixed deals aren't much cheaper than the price cap. Compare on a site like Uswitch or through Citizens Advice, and check for exit fees before you switch.",
        ),
        u(
          "This came from my supplier, what's it saying in short? 'We are pleased to offer you our Fix & Save 12 tariff at 24.1p per kWh for electricity and 5.9p per kWh for gas, with standing charges of 53p and 31p per day respectively. This tariff has an exit fee of £75 per fuel. To accept, simply reply to this email.'",
        ),
      ],
    ],
    [
      'summarize',
      [
        u("Could you write a funny poem about my husband's terrible DIY?"),
        a(
          "He bought a drill, he bought a saw,\nhe put a shelf up on the floor;\nthe kitchen tap now sprays the cat,\nbut he's so proud, and that is that!",
        ),
        u(
          "Ha, perfect. Now a different thing: could you summarise this email from the parish council? 'Following complaints from residents, the footpath between Church Lane and the allotments will be closed for resurfacing from 3 to 17 June. A diversion will be signposted via Back Road. The council apologises for any inconvenience caused.'",
        ),
      ],
    ],
    [
      'summarize',
      [
        u(
          "I'm going to paste part of a long report from my mum's care home. Could you tell me the key points? 'Mrs Evans has settled well. She eats most of her meals and enjoys the Thursday music sessions. She had one fall on 4 March with no injury; a sensor mat has been placed by her bed. Her medication was reviewed by the GP and remains unchanged.'",
        ),
        a(
          "Key points: your mum has settled in well, is eating well and enjoys the music sessions. She had a fall on 4 March but wasn't hurt, and there's now a sensor mat by her bed. The GP checked her medicines and made no changes.",
        ),
        u(
          "Here's the next part, please do the same with it: 'Her daughter is asked to bring more labelled clothing, especially warm cardigans. A podiatry visit is booked for 20 March. Mrs Evans has asked about going to church on Sundays and staff are looking into transport.'",
        ),
      ],
    ],
    [
      'summarize',
      [
        u("What does 'prenez rendez-vous' mean?"),
        a("It means 'make an appointment' in French."),
        u(
          "OK thanks. Can you give me the main points of this long thing my son forwarded about the school's new phone rules? 'From September, students in years 7 to 11 will not be permitted to use mobile phones during the school day. Phones must be switched off and kept in bags at all times. Phones seen in use will be confiscated and returned at the end of the day. Repeat offences will require a parent or carer to collect the phone in person.'",
        ),
      ],
    ],

    // ---------------- general ----------------
    [
      'general',
      [
        u('My hydrangeas have gone brown at the edges of the leaves. What am I doing wrong?'),
        a(
          'Brown leaf edges usually mean the plant is drying out or getting scorched by strong sun. Hydrangeas like moist soil and a bit of afternoon shade. Water deeply at the base in dry spells and put a mulch of compost around them.',
        ),
        u("I don't understand what mulch is, can you explain again?"),
      ],
    ],
    [
      'general',
      [
        u('Is it safe for me to fly after a knee replacement? I had it done five weeks ago.'),
        a(
          "Many surgeons advise waiting about six weeks before flying, mainly because of the risk of blood clots. It's best to check with your surgeon, and on the flight wear compression socks, drink water and walk about when you can.",
        ),
        u('what about a long train journey?'),
      ],
    ],
    [
      'general',
      [
        u('Can you recommend a good detective series to watch? I liked Midsomer Murders.'),
        a(
          'You might enjoy Vera, Father Brown, Grantchester, Inspector Morse or Death in Paradise. They all have that gentle, puzzle-solving feel.',
        ),
        u('Any more like the third one?'),
      ],
    ],
    [
      'general',
      [
        u('My tablet keeps telling me the storage is full. What does that mean?'),
        a(
          "It means the tablet's memory is nearly used up by photos, videos, apps and messages. When it's full it can slow down and it can't install updates.",
        ),
        u("How do I see what's taking up the space?"),
        a(
          "Go to Settings, then Storage (on an iPad it's Settings > General > iPad Storage). It will show you a list of what's using the most space.",
        ),
        u("It says Photos is using most of it. I don't want to lose them though."),
        a(
          "You can copy them to a computer or a USB stick, or turn on a cloud backup such as iCloud or Google Photos. Once they're safely backed up, you can delete them from the tablet to free up space.",
        ),
        u('sorry, can you go over the last bit again slowly?'),
      ],
    ],
    [
      'general',
      [
        u('Who was the king of England during the Great Fire of London?'),
        a(
          "That was Charles II. The fire broke out in September 1666 in a baker's shop on Pudding Lane and burned for about four days.",
        ),
        u('and what happened after that?'),
      ],
    ],
    [
      'general',
      [
        u('If I walk 3 miles a day, how many miles is that in a year?'),
        a(
          "3 × 365 = 1,095 miles in a year. That's roughly the distance from Land's End to John o' Groats and most of the way back!",
        ),
        u(
          "Goodness. Do you think walking is enough exercise at my age, I'm 74, or should I be doing something else as well?",
        ),
      ],
    ],
    [
      'general',
      [
        u("What's the difference between a cold and the flu?"),
        a(
          'Colds come on gradually with a runny nose and a sore throat. Flu usually comes on suddenly with a high temperature, aches and a tiredness that can knock you off your feet for days.',
        ),
        u('Should I get the flu jab this year? I had a very sore arm after it last time.'),
      ],
    ],
    [
      'general',
      [
        u("Hello, I'm new to this. Can you really answer anything?"),
        a(
          "Hello and welcome! I can help with lots of things: questions, letters, recipes, explaining things, or just a chat. I can make mistakes, though, so it's worth double-checking anything important.",
        ),
        u("That's good to know. Do you have a favourite book?"),
      ],
    ],
    [
      'general',
      [
        u("Why do my knees ache more when it's going to rain?"),
        a(
          "Lots of people notice this. One idea is that the drop in air pressure before rain lets the tissues around the joint swell slightly, which can press on nerves. The science isn't settled, but the feeling is real for many people.",
        ),
        u('Is there anything that helps with it, apart from moving somewhere sunny?'),
      ],
    ],
    [
      'general',
      [
        u('My grandson says I should get one of those smart speakers. What does it actually do?'),
        a(
          "It's a small speaker you talk to. You can ask it to play music or the radio, set reminders, tell you the weather or ring family members, all just by speaking.",
        ),
        u('Would it be listening to everything I say in my house?'),
      ],
    ],
  ],
};
