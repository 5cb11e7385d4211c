// Hand-written by the ninth writer: everyday users of a messaging-app assistant in 2026 — office staff, students, developers, parents, retirees and second-language writers.

export const ninthAssistant6 = {
  name: 'ninth-writer-assistant6',
  about:
    'A general-purpose AI assistant built into a popular messaging app that routes each chat message to one of six skills: code, math, creative writing, translation, summarization, or general help.',
  routes: [
    {
      name: 'code',
      description:
        'Writing, fixing, explaining or reviewing code, scripts, database queries, spreadsheet formulas, developer tools and error messages.',
      examples: [
        `fix this python error`,
        `write a SQL query to join two tables`,
        `excel formula to sum if`,
        `how do I reverse a string in JavaScript`,
        `explain this regex`,
      ],
    },
    {
      name: 'math',
      description:
        'Doing calculations, algebra, statistics, word problems and proofs, including money and everyday number questions.',
      examples: [
        `what's 18% of 240`,
        `solve for x: 3x - 4 = 11`,
        `calculate the mean and median of these numbers`,
        `what's the area of a circle with radius 5`,
        `help me with this probability problem`,
      ],
    },
    {
      name: 'creative',
      description:
        'Inventing original content such as stories, poems, jokes, names, slogans, lyrics and playful rewrites.',
      examples: [
        `write a poem about the ocean`,
        `tell me a joke`,
        `give me names for my puppy`,
        `write a short story about a robot`,
        `slogan for my coffee shop`,
      ],
    },
    {
      name: 'translate',
      description:
        'Translating text between languages or checking and correcting an existing translation.',
      examples: [
        `translate this to Spanish`,
        `how do you say hello in Japanese`,
        `what does this French sentence mean`,
        `check my German translation`,
        `translate this email into English`,
      ],
    },
    {
      name: 'summarize',
      description:
        'Condensing a text, document, chat thread, transcript or notes that the user pastes, attaches or links into a shorter version or key points.',
      examples: [
        `summarize this article`,
        `tl;dr of this text`,
        `give me the key points of these notes`,
        `shorten this into a few bullet points`,
        `summarize this email thread`,
      ],
    },
    {
      name: 'general',
      description:
        'Everything else: factual questions, explanations, advice, recommendations, planning and small talk.',
      examples: [
        `what's the capital of Australia`,
        `tips for a job interview`,
        `recommend a good book`,
        `how does a vaccine work`,
        `help me plan a weekend trip`,
      ],
    },
  ],
  messages: {
    code: [
      `regex for uk postcodes`,
      `git undo last commit but keep changes`,
      `npm ERR! ERESOLVE unable to resolve dependency tree ???`,
      `xlookup returning #N/A even tho the value is there`,
      `python list comprehension w/ if else`,
      `docker compose says port already allocated`,
      `sql get 2nd highest salary`,
      `center a div in tailwind`,
      `bash loop over files w spaces in names`,
      `cursor keeps adding the wrong imports, how do i stop it`,
      `Write a Python script that reads a folder of .log files and prints a summary of how many ERROR, WARN and INFO lines each one has.`,
      `Can you give me a Google Sheets formula that averages column C only for rows where column A says "Paid"?`,
      `My React useEffect runs twice on mount in dev mode — is that a bug in my code or expected behaviour?`,
      `Convert this to TypeScript with proper types: function add(a, b) { return a + b }`,
      `What's the difference between let and const in JavaScript, and is there ever a reason to still use var?`,
      `cron for every weekday 7:30am`,
      `Write a function in Rust that checks if a number is prime and is reasonably fast for numbers up to 10^12.`,
      `how do i make a github action run only when files in /docs change`,
      `Postgres query to count signups per week for the last 12 weeks, including weeks with zero signups pls`,
      `Can you write an Excel VBA macro that splits one sheet into separate files based on the value in column B?`,
      `I'm running a Flask app on my laptop and it worked fine yesterday. Today I get this:

Traceback (most recent call last):
  File "app.py", line 3, in <module>
    from flask_sqlalchemy import SQLAlchemy
ModuleNotFoundError: No module named 'flask_sqlalchemy'

I already ran pip install flask-sqlalchemy and it says requirement already satisfied. What's going on?`,
      `can someone explain why this prints 5 five times

for (var i = 0; i < 5; i++) {
  setTimeout(() => console.log(i), 100);
}

i expected 0 1 2 3 4`,
      `I inherited this function and it's a mess. Can you refactor it into something readable, maybe a lookup table instead of the if chain?

def shipping_cost(country, weight):
    if country == "US":
        if weight < 1: return 5
        else: return 9
    elif country == "CA":
        if weight < 1: return 7
        else: return 12
    elif country == "UK":
        if weight < 1: return 8
        else: return 14
    else:
        return 20`,
      `I keep our family budget in Google Sheets. Column B is the category, column D is the amount spent and column E is the monthly limit for that category. I want the whole row to turn red when D goes over E, and orange when it's above 90% of E. What custom formulas do I put in conditional formatting?`,
      `I'm a teacher, not a programmer. Every week I export grades from our school portal as a CSV with the columns name, assignment, score. I'd like a little script I can just run that shows each student's average and flags anyone under 60. I'm on a Mac. Can you write it and tell me exactly how to run it from Terminal?`,
      `This query takes 40 seconds on a table with about 30M rows. How do I speed it up?

SELECT user_id, COUNT(*)
FROM events
WHERE DATE(created_at) = '2026-01-14'
GROUP BY user_id;

There's already an index on created_at, so I don't get why it's so slow.`,
      `Write a small Python program that generates random fantasy character names by combining syllables. I want the code, not a list of names, because I'm plugging it into my Discord bot as a /name command.`,
      `I have a Django app and need to add French and German to the UI. I already have the translated strings from a translator in a spreadsheet. How do I set up gettext, the .po files and a language switcher in the templates?`,
      `We moved our deploys from Jenkins to GitHub Actions and the deploy step now fails with "Permission denied (publickey)". The SSH private key is saved as a repo secret called DEPLOY_KEY. Here's the step:

    - name: Deploy
      run: ssh ubuntu@\${{ secrets.HOST }} 'cd app && git pull'

What am I missing?`,
      `bash one-liner to print the top 10 IPs by number of requests from access.log`,
    ],
    math: [
      `15% tip on 86.40`,
      `derivative of x^2 sin x`,
      `whats 3/8 as a percent`,
      `solve 2x + 7 = 3x - 5`,
      `is 221 prime`,
      `integral of 1/(1+x^2) dx`,
      `how many seconds in 3.5 weeks`,
      `std dev of 4 8 15 16 23 42`,
      `72 f to c`,
      `odds of at least two sixes with 3 dice?`,
      `If I put $300 a month into an account at 4.5% annual interest compounded monthly, how much will I have after 10 years?`,
      `My car does 38 miles per gallon and gas is $3.79. How much will a 460-mile road trip cost one way?`,
      `Prove that the square root of 2 is irrational, step by step please, it's for my discrete math class.`,
      `A shirt is marked down 30% and then another 20% at checkout. Is that the same as 50% off? Show me why.`,
      `We split a $212 dinner bill between 7 people, but two of them didn't drink and the drinks were $48 total. What does each person owe?`,
      `What sample size do I need for a survey with 95% confidence and a 3% margin of error?`,
      `find the eigenvalues of [[2,1],[1,2]]`,
      `How many different 4-digit PINs have no repeated digits?`,
      `A recipe for 6 needs 2/3 cup of sugar. How much do I need for 15 people?`,
      `A train leaves at 2:15 going 84 km/h and another leaves the same station at 3:00 going 110 km/h on the same track. When does the second one catch up?`,
      `Here are my shop's monthly sales for the first half of the year:
Jan 12,400
Feb 11,900
Mar 14,250
Apr 13,800
May 15,100
Jun 16,020
What's the average monthly growth rate, and if it keeps going at that rate, what would December come out to?`,
      `I'm a landlord with two units. Unit A rents for $1,450 and Unit B for $1,180. The mortgage is $1,900 a month, property tax is $4,800 a year and insurance is $1,260 a year. I also set aside 8% of rent for repairs. What's my monthly cash flow, and what's my annual cash-on-cash return if I put $85,000 down?`,
      `My kid's homework says: "A rectangle's length is 3 cm more than twice its width. Its perimeter is 42 cm. Find the area." She got 90 but the answer key says 84. Who's right? Please show the working so I can explain it to her.`,
      `I ran an A/B test on our checkout page. Version A: 4,210 visitors, 312 purchases. Version B: 4,187 visitors, 361 purchases. Is the difference statistically significant at the 5% level? I don't want code, I want the actual test worked out and the p-value.`,
      `Studying for the GRE and this type keeps getting me. Pipe A fills a tank in 6 hours and Pipe B in 9 hours, while a drain empties it in 12 hours. If all three are open, how long does it take to fill the tank? Please explain the method, not just the answer.`,
      `Can you check my induction proof? Claim: 1 + 3 + 5 + ... + (2n-1) = n^2.
Base case: n = 1 gives 1 = 1.
Step: assume it holds for k, then 1 + ... + (2k-1) + (2k+1) = k^2 + 2k + 1 = (k+1)^2.
Is that rigorous enough or will my teacher take marks off?`,
      `There are 5 of us on the team and we want to schedule 1:1s so every pair meets exactly once, with each person doing at most one meeting per day. What's the minimum number of days, and why can't it be fewer?`,
      `Refinancing question. I owe $212,000 at 6.8% with 26 years left. A bank offers 5.9% over 25 years with $4,500 in closing costs. How much lower is the monthly payment, and how many months until it pays back the closing costs?`,
      `give me the volume formula for a cone and then work it out for r = 4 cm, h = 9 cm`,
      `salary going from 58k to 63.5k, what % raise is that and how much more per month after 22% tax`,
    ],
    creative: [
      `haiku about monday standups`,
      `name ideas for a sourdough bakery`,
      `roast my cat in 2 lines`,
      `limerick about kubernetes pls`,
      `slogan for a dog walking business`,
      `bedtime story w a dragon scared of the dark`,
      `pun names for our pub quiz team`,
      `rap verse about excel spreadsheets lol`,
      `wedding toast opener, funny but not mean`,
      `make up a fake holiday for february`,
      `Write a short poem for my grandma's 90th birthday card, she loves gardening and crossword puzzles.`,
      `Can you write a song chorus about debugging at 3am, in the style of a sad country ballad?`,
      `Give me 10 names for a budgeting app aimed at college students — catchy, not cringe.`,
      `Write a two-paragraph horror story where the monster is an AI assistant that's just slightly too helpful.`,
      `I need a funny out-of-office auto-reply for my two weeks in Portugal, something my coworkers will actually enjoy reading.`,
      `Invent a currency system for my D&D campaign, with names for the coins and a bit of lore about who mints them.`,
      `write a sonnet where a data packet falls in love with a firewall`,
      `Make up a riddle whose answer is "a shadow" for my kids' treasure hunt.`,
      `Write a tagline and a 50-word product description for a reusable water bottle that tracks how much you drink.`,
      `give me a motivational locker-room speech but for people who have to do their taxes this weekend`,
      `I'm hosting a murder mystery dinner for 8 friends next Saturday, theme is a 1920s jazz club. Can you create the characters — name, occupation, secret and motive for each — and decide who the murderer is? Keep it light, nobody wants anything too dark.`,
      `My daughter is 7 and obsessed with octopuses and space. Could you write a bedtime story about an octopus astronaut, around 500 words, with a calm ending that helps her fall asleep? Her name is Mila, so please put her in it too.`,
      `I teach intro statistics and want to open my lecture on the normal distribution with something memorable. Could you write a short funny poem, maybe 12 to 16 lines, from the point of view of the bell curve complaining about outliers?`,
      `Our startup launches a password manager in March and we need 5 slogan options. Tone: reassuring, a bit witty, not corporate. Please avoid the words "secure" and "safe", every competitor uses them. The audience is small business owners who hate dealing with IT.`,
      `I'm writing a fantasy novel and I'm stuck. My protagonist is a cartographer who just realized the maps she draws are changing the real landscape. Write the next scene where she tests it on purpose for the first time — about 400 words, present tense, close third person.`,
      `Write lyrics for a birthday song for my coworker Dev, to the tune of "Happy Birthday" but with a few verses. Things to include: he's obsessed with his air fryer, he's always late to standup, he runs marathons, and he just became a dad. Keep it office-appropriate!`,
      `Can you rewrite this boring changelog as a fun release note in the voice of a pirate captain?

- Fixed crash when uploading PNG files over 20MB
- Added dark mode to settings
- Improved search speed by 40%
- Removed legacy export to .xls`,
      `My laptop is finally dying after 11 years and my friends are throwing it a "retirement party" at my place. Can you write a mock-serious eulogy for it, around 200 words? Please mention the sticky E key and the fan that sounded like a jet engine.`,
      `Write a short dialogue between Python and JavaScript arguing about who's the better first language, for our coding club newsletter.`,
      `brainstorm 15 names for a fantasy football league full of data nerds`,
    ],
    translate: [
      `"break a leg" in german?`,
      `how do u say "where is the pharmacy" in thai`,
      `translate "je suis désolée pour le retard" pls`,
      `what does "ojalá" mean in english`,
      `"thank you for your patience" in japanese, polite form`,
      `korean for "happy birthday mom"`,
      `spanish word for deadline, mexico not spain`,
      `to italian: see you tomorrow at 8`,
      `arabic for "welcome" + how to pronounce it`,
      `is "Ich bin heiß" right for saying im hot (the weather)`,
      `Can you translate this error message into Portuguese for our Brazilian users: "Your session has expired. Please sign in again to continue."`,
      `My mother-in-law sent this on WhatsApp and I only know a bit of Polish: "Kochanie, nie zapomnij zabrać parasola, w sobotę ma padać." What is she saying?`,
      `Translate "Please find attached the invoice for March" into formal French for a client email.`,
      `How would I say "I'm allergic to peanuts, is there peanut in this dish?" in Vietnamese? I'll show it to waiters on my phone.`,
      `Is this Spanish correct for a sign in my shop: "Favor de no tocar la mercancía"? I want it to sound natural to customers from Spain.`,
      `Translate these UI strings into German and keep the placeholders as they are: "Welcome back, {name}!", "You have {count} new messages", "Log out".`,
      `Translate "Could you fix the heating this week?" into French for my landlord — should I use tu or vous?`,
      `Can you put this Japanese product review into English? "思ったより小さいけど、音はとても良いです。買ってよかった。"`,
      `translate my dating bio to spanish but keep it flirty: "will steal your fries, will also share my dessert"`,
      `Please translate "Keep out of reach of children. Do not exceed the stated dose." into Simplified Chinese for a product label.`,
      `I got this from my landlord in Berlin and Google Translate makes it sound rude. Can you translate it properly and tell me if the tone is actually rude?

"Sehr geehrte Frau Okafor,
hiermit teile ich Ihnen mit, dass am 12.03. zwischen 8 und 12 Uhr die Heizungsanlage gewartet wird. Bitte sorgen Sie dafür, dass die Wohnung zugänglich ist.
Mit freundlichen Grüßen
K. Brandt"`,
      `I'm localizing our README for Spanish-speaking contributors. Please translate this section into Spanish but leave the commands exactly as they are:

## Installation
Clone the repo and install dependencies:
    git clone https://github.com/acme/tasker.git
    npm install
Then copy .env.example to .env and set your API key.`,
      `I wrote this in Italian for my host family before I arrive. Could you check whether it sounds natural and fix any mistakes?

"Ciao! Sono molto emozionato di venire da voi a giugno. Io sono vegetariano ma mangio pesce. Non vedo l'ora di conoscere voi tutti e migliorare il mio italiano."`,
      `My grandfather's old letters are in Tagalog and I'm trying to read them for a family history project. Here's one paragraph: "Mahal kong anak, sana ay nasa mabuti kang kalagayan. Dito sa probinsya, maganda ang ani ngayong taon." Could you give me a faithful English translation and point out anything that doesn't translate neatly?`,
      `I'm a nurse and we have a new patient who only speaks Russian. Can you translate these three questions into Russian, with a simple phonetic version so I can read them aloud? "Do you have any pain?", "Where does it hurt?", "On a scale of 1 to 10, how bad is it?"`,
      `We're signing a supplier agreement with a Korean company. Please translate this clause into English as accurately as possible, in a legal register rather than casual: "본 계약은 양 당사자가 서명한 날로부터 효력이 발생하며, 1년간 유효하다."`,
      `We're launching in Brazil and Portugal at the same time, so I need our homepage headline in both Brazilian and European Portuguese. Original:
"Ship faster. Break less. The CI platform your team will actually enjoy."
It's a hero banner, so keep it punchy.`,
      `I'm at a restaurant in Lyon and the whole menu is in French. What do these actually mean in English? "Quenelle de brochet sauce Nantua", "Tablier de sapeur", "Cervelle de canut".`,
      `Could you translate these subtitle lines into Hindi for a short film? They need to stay short enough to read on screen.
1. "We're late again."
2. "Relax, they never start on time."
3. "That's what you said last time."`,
      `translate to english pls: "mañana no puedo, tengo turno doble en el curro, ¿lo dejamos para el finde?"`,
    ],
    summarize: [
      `tldr this pls https://www.theverge.com/2026/2/3/phone-battery-life-test-results`,
      `summarize the thread above`,
      `gist of the pdf i just attached?`,
      `whats this article basically saying https://www.bbc.com/news/articles/c4gx2k7ye1po`,
      `recap the zoom transcript i uploaded, just decisions + who's doing what`,
      `summarise the doc i shared, main points only`,
      `tl;dr of the google doc link above?`,
      `key points from these notes pls
- vendor demo moved to thurs
- budget freeze until Q3
- Ana owns the onboarding doc
- need legal signoff before any pilot
- Marco out next week, Priya covers`,
      `one-line summary of this review: "The hotel was in a great location, right by the metro, and the staff were friendly, but the room was much smaller than the photos, the walls were thin and breakfast was overpriced at 24 euros. Would stay again only if the price dropped."`,
      `boil this down to 3 bullets: "Starting next month, all expense claims must be submitted through the new Concur portal within 30 days of purchase. Paper receipts will no longer be accepted; photos taken in the app are fine. Claims over 500 euros need pre-approval from your line manager. Late claims will be reviewed case by case but may be rejected."`,
      `shorten this to like 2 sentences for slack: "Hi all, just a heads up that the staging environment will be down on Thursday from 6pm to roughly 10pm while the infra team upgrades the database cluster. Please don't schedule any demos or QA sessions during that window. If you have something urgent that can't move, ping me before Wednesday noon and we'll try to work around it."`,
      `Summarize this earnings paragraph in plain English: "Q4 revenue rose 12% YoY to $4.3B, while operating margin contracted 180bps to 21.4% on higher cloud capex. FY26 guidance was cut to $16.8–17.1B from $17.5B."`,
      `Summarize this PR description in 2-3 lines for standup, I don't need a code review:

"This PR replaces express-session with stateless JWT auth in the api-gateway. Access tokens expire after 15 min, refresh tokens after 7 days and are stored in an httpOnly cookie. The /login and /refresh routes were rewritten, and /logout now revokes the refresh token in Redis. Removed connect-redis and 3 unused middlewares. Migration: existing sessions are invalidated on deploy, so users will need to log in again. Tests: 42 new, coverage 81% -> 86%."`,
      `I was offline all day, what did I miss? Summarize this group chat:

Sam: ok so are we still doing the cabin thing 14-16th
Priya: I can do 14-16 but I can't drive
Leo: I'll drive, my car fits 5
Sam: cabin is $840 total, so $168 each if it's 5 of us
Priya: Jess said she's out, her sister's wedding
Leo: then 4 of us = $210 each, still fine?
Sam: fine by me, booking tonight unless anyone objects`,
      `Can you turn my messy meeting notes into a short summary with decisions and action items?

mtg w/ marketing 2/11
- spring campaign pushed to apr 7 bc of packaging delay
- Tom thinks influencer budget too high (18k), Rina disagrees, settled on 12k
- need new product photos, Jae to book studio
- website banner copy due fri (me)
- next check-in 2/18`,
      `Here's last night's pipeline output. Just tell me in plain words what happened — which steps worked and which didn't:

[02:00:01] fetch_orders ... OK (12,381 rows)
[02:03:47] clean_orders ... OK (12,102 rows, 279 dropped)
[02:04:10] join_customers ... WARN: 56 orders with unknown customer_id
[02:06:55] load_warehouse ... ERROR: connection timeout after 300s (retry 1/3)
[02:12:02] load_warehouse ... OK
[02:12:40] send_report ... SKIPPED (flag disabled)`,
      `I'm not a scientist, can you summarize this abstract so my book club gets it?

"We conducted a randomized controlled trial (n = 1,204) to assess the effect of a 12-week time-restricted eating intervention on HbA1c in adults with prediabetes. Participants in the intervention arm (8-hour eating window) showed a mean reduction of 0.31% (95% CI 0.22–0.40) versus 0.09% in controls. No significant differences were observed in body weight at 12 weeks. Adverse events were mild and comparable between groups."`,
      `The school sent this and I'm exhausted, what do I actually need to do and by when?

"Dear Parents and Guardians, as we approach the end of term, please note the following. Friday 21st is a non-uniform day; a donation of £1 is suggested for the charity appeal. Year 4 trip forms and the £12 contribution must be returned by Wednesday 19th via ParentPay. Parent-teacher consultations will take place on the 26th and 27th; booking opens Monday on the school app. Please also label all coats, as our lost property box is overflowing. Kind regards, Mrs Whitfield"`,
      `Summarize what this part of the terms says — basically, can they use my photos? "By uploading Content, you grant Company a non-exclusive, worldwide, royalty-free, sublicensable license to use, reproduce, modify, and display such Content in connection with operating and improving the Services, including training machine learning models, for as long as the Content remains on the Services and for 90 days thereafter."`,
      `Sum up what customers are saying about our blender, pros and cons, based on these reviews:
"Super powerful, crushed ice in seconds. Loud though."
"Lid cracked after 2 months. Support replaced it fast."
"Best smoothies I've made, but it's hard to clean under the blade."
"Way too loud for my apartment, returned it."
"Great value for $89, does everything the $300 ones do."`,
      `Can you summarize this bit of a podcast transcript? I only want the main argument.

"...so the thing people get wrong about sleep is they think it's all about the number of hours. And hours matter, sure, but consistency matters more. If you sleep seven hours but your bedtime swings by two hours every night, your body never knows when to release melatonin. What we see in the data is that people with regular schedules at six and a half hours often feel better than irregular sleepers at eight. So my advice is always: fix the wake-up time first, even on weekends, and let the bedtime follow..."`,
      `Write a 2-sentence summary of this for my manager. No need to calculate anything, just describe what's going on:

Region | Q3 tickets | Q4 tickets | Avg response (h)
North  | 1,240 | 1,310 | 4.2
South  | 980   | 1,650 | 9.8
East   | 1,105 | 1,090 | 3.9
West   | 870   | 910   | 4.5`,
      `Exam on Thursday. Can you condense my lecture notes on the French Revolution into a short cheat sheet?

- 1789 Estates-General called bc France is broke, Third Estate breaks off -> National Assembly, Tennis Court Oath
- July 14 storming of the Bastille
- Aug 1789 Declaration of the Rights of Man
- 1791 constitutional monarchy, king tries to flee (Varennes)
- 1792 republic declared, war w Austria/Prussia
- 1793 Louis XVI executed, Robespierre + Committee of Public Safety, Terror
- 1794 Thermidor, Robespierre executed
- 1795 Directory, 1799 Napoleon coup (18 Brumaire)`,
      `Can you write a short summary of this incident thread for people who weren't online?

Maya 09:12: checkout is throwing 500s for some users
Raj 09:15: seeing it too, only on EU region
Maya 09:21: looks like the payments provider rotated their TLS cert
Raj 09:34: our pinned cert in config was outdated, pushing a fix
Raj 09:48: fix deployed, error rate back to 0.2%
Maya 10:05: ~3,400 failed checkouts total, support is emailing affected customers`,
      `I need an abstract for my thesis, max 80 words, based on this section. Can you summarise it down?

"This study examined how remote work affected informal knowledge sharing in three mid-sized engineering firms between 2022 and 2025. Using 46 semi-structured interviews and analysis of internal chat logs, I found that spontaneous help-seeking dropped sharply in the first year of remote work but partly recovered once teams introduced scheduled open office hours. Junior employees were most affected, reporting longer delays in getting answers and lower confidence in asking questions publicly."`,
      `Our HR just changed the remote work policy. TL;DR please — does anything change for me? I currently work from home Mondays and Fridays.

"Effective 1 April 2026, employees are expected in the office a minimum of three days per week, of which Tuesday and Thursday are mandatory anchor days. The third day may be chosen freely in agreement with your team lead. Existing individual arrangements approved before January 2026 remain valid until 30 June 2026. Exceptions for medical or caregiving reasons can be requested through the HR portal."`,
      `Summarize this README for me, I just want to know what the tool does and whether I need Docker:

"# quickcap
quickcap records your screen and auto-generates captions using a local Whisper model.
## Requirements
- Python 3.11+
- ffmpeg
- Optional: Docker, if you want to run the web UI in a container
## Usage
quickcap record --out demo.mp4
quickcap caption demo.mp4 --lang en"`,
      `This email chain with a client got long. Can you summarize where we landed on price and deadlines?

Lena: Can you do the redesign for 6,000 and deliver by March 1?
Me: Our quote is 7,500 for that scope. March 1 is tight, March 15 works.
Lena: 7,000 and March 10 and we have a deal, but we need the mobile mockups first.
Me: Deal at 7,000. Mobile mockups by Feb 20, full delivery March 10.
Lena: Perfect, sending the contract Monday.`,
      `My friend sent me a 9 minute voice note, here's the transcript, what's the short version? "ok so basically, um, the landlord finally got back to me and he said we can break the lease early but only if we find someone to take over, which, honestly, fine, but I don't have time to show the flat because of the new job, so I was thinking maybe you could show it on Saturday if you're around? also I got the job!! did I say that? I start on the 3rd. anyway the new place is in Leith, it's smaller but it's got a garden, so that's a win. call me back when you can"`,
      `Condense this into one tweet-length sentence: "The city council voted 7-2 on Tuesday to approve a $14 million plan to add 22 miles of protected bike lanes over the next three years, with construction on the first corridor along Main Street expected to begin in September. Opponents argued the plan would remove about 400 parking spaces downtown."`,
    ],
    general: [
      `best time of year to visit japan`,
      `is it normal for my sourdough starter to smell like nail polish`,
      `who wrote "do not go gentle into that good night"`,
      `chatgpt vs claude vs gemini for uni work?`,
      `how long to boil an egg for jammy yolk`,
      `gift ideas for a 10 yr old who's into minecraft`,
      `why is the sky orange at sunset`,
      `can i bring a power bank on ryanair`,
      `gm!! hows ur day going`,
      `do i need a visa for vietnam w a uk passport`,
      `Is it worth learning to code at 45 if I want to switch careers, or is AI making junior developer jobs disappear?`,
      `Why does English spelling make so little sense? Like why is "knight" spelled with a k?`,
      `What's the difference between a Roth IRA and a traditional IRA, in simple terms?`,
      `How did Latin turn into Spanish, French and Italian? Was it gradual or was there a specific moment?`,
      `Can you recommend a few history podcasts that aren't super dry? I commute 40 minutes each way.`,
      `My 3-year-old refuses to sleep in her own bed since we moved. Any tips that don't involve letting her cry for hours?`,
      `What's the actual difference between a virus and bacteria, and why don't antibiotics work on a cold?`,
      `Should I buy the iPhone 17 now or wait for the next one? My 13 still works but the battery is dying.`,
      `laptop for a cs degree, ~1000€ budget?`,
      `who invented the = sign`,
      `My partner and I have 5 days in Portugal in late April. We love food, walking and wine, and we're not big on museums. We land in Lisbon and fly out of Porto. How should we split the days, and is it better to take the train or rent a car?`,
      `I just got my first job offer as a junior data analyst. They offered 42k and Glassdoor says the range in my city is 40–52k. Is it weird to negotiate on a first job? How would I even phrase it without sounding ungrateful?`,
      `I'm 68 and my grandson set this app up for me. I keep getting messages from numbers I don't know saying I've won a prize and need to click a link to claim it. How can I tell if something is a scam, and should I block these people?`,
      `I've been learning Japanese on Duolingo for about 8 months and I feel stuck. I can read hiragana and katakana fine but kanji is killing me. What's a realistic study plan to reach JLPT N4 by December, and what resources do people actually use?`,
      `We're throwing a 7th birthday party for 12 kids at home in a small apartment, budget around $150. What activities keep kids that age busy for two hours without wrecking the place? And should I expect the parents to stay?`,
      `I'm reading about Emily Dickinson for a class. Why did she publish so few poems during her lifetime, and how did all her poems end up being published after she died?`,
      `My team is arguing about whether to use Slack huddles or just schedule Zoom calls for quick syncs. I'm the manager. What are the pros and cons, and how do other teams handle this so people don't feel interrupted all day?`,
      `My landlord wants to raise the rent by 15% at renewal. I'm in Ontario, I've lived here 3 years and the unit hasn't been renovated. Is that even allowed, and what are my options?`,
      `what does a software engineer actually do all day? my son wants to study it and i have no idea`,
      `is it bad to drink coffee on an empty stomach`,
    ],
  },
};
