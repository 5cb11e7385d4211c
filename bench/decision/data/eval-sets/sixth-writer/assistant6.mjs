// Hand-written evaluation set (sixth writer): an internal workplace AI assistant
// used by developers, analysts, marketers, lawyers, managers and support agents.

export const sixthAssistant6 = {
  name: 'sixth-writer-assistant6',
  about: 'Messages typed by professionals to an internal company AI assistant, often with pasted work material, routed to code, math, creative, translate, summarize or general.',
  routes: [
    {
      name: 'code',
      description: 'Programming help: writing, debugging, reviewing or explaining code, SQL queries, scripts, spreadsheet formulas, CI pipelines and error messages.',
      examples: [
        "Why does this Python script throw KeyError: 'customer_id' on line 42?",
        'Write a SQL query that returns the top 10 accounts by revenue last quarter.',
        'Fix my VLOOKUP, it returns #N/A even though the value is there.',
        'Can you review this pull request diff for obvious bugs?',
        "Our GitHub Actions build fails at the npm ci step, here's the log.",
      ],
    },
    {
      name: 'math',
      description: 'Calculations and quantitative reasoning: business math, percentages, growth rates, statistics, probability, unit conversions and estimates.',
      examples: [
        "If our gross margin is 38% on $2.4M revenue, what's the gross profit?",
        "What's the compound annual growth rate from 1.2M to 3.1M over 4 years?",
        'Convert 750 square meters to square feet.',
        'Is a 2.3% lift on 8,000 visitors statistically significant?',
        "Estimate how many support tickets we'd get per day at 40k users if 1.5% file one monthly.",
      ],
    },
    {
      name: 'creative',
      description: 'Original creative writing such as taglines, product names, poems, stories, jokes, speeches and playful copy.',
      examples: [
        'Give me five taglines for our new expense-tracking app.',
        "Write a short poem for Maria's farewell card, she's leaving after 12 years.",
        'Suggest names for our internal data platform.',
        'Write a funny two-minute story for the team offsite kickoff.',
        'I need a light joke to open my quarterly results presentation.',
      ],
    },
    {
      name: 'translate',
      description: 'Translating a given word, phrase or text from one language into another, or adapting its wording for a target locale.',
      examples: [
        "Translate this email to German: 'Thanks for your patience, the shipment leaves Friday.'",
        "How do I say 'please find the signed contract attached' in French?",
        'Put this product description into Spanish for our Mexico site.',
        'Translate the following Japanese customer feedback into English.',
        "Can you render this slide title in Italian: 'Our roadmap for 2025'?",
      ],
    },
    {
      name: 'summarize',
      description: 'Condensing a provided text such as emails, meeting notes, reports, logs, contracts or documents into a shorter summary, key points or TL;DR.',
      examples: [
        'Summarize this email thread in three bullet points.',
        'TL;DR of the meeting notes below please.',
        'Give me the key takeaways from this quarterly report.',
        'Condense this incident report into a paragraph for leadership.',
        'Summarize this contract clause in plain English.',
      ],
    },
    {
      name: 'general',
      description: 'Everything else: factual questions, advice, explanations of how things work, workplace etiquette, company life and recommendations.',
      examples: [
        "What's the difference between a W-2 employee and a contractor?",
        'How should I politely decline a meeting with my skip-level?',
        'Any tips for running a productive retrospective?',
        'What time zone is Singapore in compared to London?',
        'Recommend a good book on negotiation.',
      ],
    },
  ],
  messages: {
    code: [
      'regex for a UK postcode?',
      'pandas: drop rows where email is null',
      'git undo last commit but keep changes',
      'SUMIFS with two date criteria, syntax?',
      "TypeError: Cannot read properties of undefined (reading 'map') - why?",
      'bash one-liner to count lines in all .csv files in a folder',
      'convert this to a LEFT JOIN: SELECT * FROM orders o, customers c WHERE o.cid = c.id',
      'docker compose healthcheck for postgres',
      "python: parse '2024-03-05T10:00:00Z' into a timezone-aware datetime",
      "why does my cron '0 9 * * 1-5' fire at 10 on the server?",
      'Can you write a Google Sheets formula that flags any row where column D is more than 10% above column C?',
      "Our Jenkins pipeline started failing with 'No space left on device' on the agent. What should I add to the Jenkinsfile to clean the workspace between builds?",
      'Write a Python function that calculates compound interest from principal, rate and years, with type hints and a docstring.',
      'I need a SQL query that computes month-over-month revenue growth percentage per region from a sales table with columns region, sale_date and amount.',
      `Please review this function, a colleague says it has a race condition:

let counter = 0;
async function increment() {
  const current = await db.get('counter');
  await db.set('counter', current + 1);
}`,
      `How do I translate this Java snippet into idiomatic Kotlin?

List<String> names = new ArrayList<>();
for (User u : users) { if (u.isActive()) names.add(u.getName()); }`,
      'Write me a short script that summarizes a log file by counting the ERROR, WARN and INFO lines.',
      "What's the difference between useEffect and useLayoutEffect, and which one should I use to measure a chart container in our dashboard component?",
      "Our Excel macro crashes with 'Run-time error 1004: Application-defined or object-defined error' when it reaches Range(\"A1\").Select on a hidden sheet. How do I fix it?",
      'Can you make this regex also accept plus signs in the local part of the email? ^[a-z0-9._-]+@[a-z0-9.-]+\\.[a-z]{2,}$',
      `I'm on the payments team and since this morning's deploy our checkout service throws this intermittently (maybe 1 in 50 requests). Nothing changed in this file as far as I know. Any idea where to look?

java.lang.NullPointerException: Cannot invoke "com.acme.pay.Currency.getCode()" because "order.currency" is null
  at com.acme.pay.PriceFormatter.format(PriceFormatter.java:58)
  at com.acme.pay.CheckoutController.summary(CheckoutController.java:121)
  at jdk.internal.reflect.GeneratedMethodAccessor412.invoke(Unknown Source)
  ...`,
      `This report query takes 4 minutes on Postgres 14 and the analysts are complaining. orders has about 30M rows and there's only an index on created_at. Could you suggest indexes or a rewrite?

SELECT c.segment, date_trunc('week', o.created_at) AS wk, SUM(o.total)
FROM orders o JOIN customers c ON c.id = o.customer_id
WHERE o.status = 'paid' AND o.created_at >= now() - interval '180 days'
GROUP BY 1, 2 ORDER BY 2;`,
      `We moved our monorepo to GitHub Actions and the test job runs for every package on every PR, which takes 25 minutes. I'd like it to only run tests for packages whose files changed under packages/*. Here's the current job:

jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm ci
      - run: npm test --workspaces

How would you restructure it?`,
      "I have a sheet with sales reps in column A, deal close dates in B, deal values in C and stage in D (Won/Lost/Open). My manager wants a summary tab showing, per rep, the total won value for the current quarter only, and it has to update automatically when new rows are added. Which formulas should I use? We're on Excel 365.",
      `Before I merge, could you do a quick code review of this Python helper? I'm mostly worried about error handling and whether it will leak connections under load.

def fetch_rates(currencies):
    conn = psycopg2.connect(DSN)
    cur = conn.cursor()
    out = {}
    for c in currencies:
        cur.execute(f"SELECT rate FROM fx WHERE code = '{c}'")
        out[c] = cur.fetchone()[0]
    return out`,
      "Every Monday I manually download a CSV from our CRM, delete the columns we don't need, filter to accounts in EMEA and email it to five people. Could you write a Python script that does the filtering and column cleanup? Columns to keep: account_id, name, country, arr, owner. EMEA means the country is in a list I'll supply as a text file, one country per line.",
      "Terraform plan keeps wanting to destroy and recreate our RDS instance even though I only changed the tags. The output says: '# aws_db_instance.main must be replaced ... ~ engine_version = \"14.7\" -> \"14.10\" # forces replacement'. We're on AWS provider 5.x. How do I stop it from replacing the production database?",
      `A junior dev on my team wrote this and asked me why it prints 10 ten times instead of 0 through 9. I roughly know the answer but want a clear explanation I can forward to him, plus the fix:

for (var i = 0; i < 10; i++) {
  setTimeout(() => console.log(i), 100);
}`,
      'The marketing analytics dashboard shows a conversion rate of 340% for one campaign, which is obviously wrong. The measure in LookML is ${orders.count} / ${sessions.count} and I suspect a fanout from the join with the orders view. How do I rewrite the measure so it divides by distinct sessions?',
      "Kubernetes pod stuck in CrashLoopBackOff. kubectl logs shows 'Error: listen EADDRINUSE: address already in use :::8080' but there's only one container in the pod and nothing else should be on that port. What's going on and how do I debug it?",
    ],
    math: [
      '15% of 84,300?',
      "what's 3.5% monthly churn as an annual rate?",
      'convert 42 miles per gallon to liters per 100 km',
      'break-even units: fixed costs 120k, price 49, variable cost 31',
      'median of 12, 7, 19, 3, 25, 11',
      'EUR 1,850 at 1.09 in USD?',
      'a 40% markup is what gross margin?',
      'working hours in a year at 37.5h per week with 25 days of leave and 8 public holidays',
      'probability of exactly 3 heads in 5 coin flips',
      '1 TB in GiB',
      "Our SaaS ARR grew from $4.2M to $5.9M this year. What's the growth rate, and if it continues at the same pace, what would ARR be in three years?",
      "If a sales rep closes 22% of qualified leads and gets 45 leads a month, what's the probability they close at least 12 deals in a given month?",
      "We're offering 20% off and then an extra 10% at checkout. Finance says that's not 30% off in total, so what is the real discount?",
      'What sample size do I need per variant to detect a lift from 4.0% to 4.5% conversion at 95% confidence and 80% power?',
      "A supplier raised prices by 8% last year and 6% this year. What's the cumulative increase over the two years?",
      'Our warehouse is 18,500 square feet. How many standard 48 x 40 inch pallets could fit on the floor if aisles take up 35% of the space?',
      'Can you compute the NPV of a project costing 250k upfront that returns 70k per year for 5 years, at an 8% discount rate?',
      "Legal bills about 310 hours a month at a blended rate of $285. If we cut hours by 12% and the rate rises 5%, what's the net change in monthly spend?",
      "What's the sample standard deviation of these daily ticket counts: 112, 98, 130, 121, 87, 140, 105?",
      'How many months does it take to double our user base at 7% month-over-month growth?',
      "I'm building the pricing model for a new tier. Cost to serve per customer is about $14/month (hosting $9, support $5). We want a 72% gross margin. The main competitor charges $59. What price hits our margin target, and what margin would we have if we simply matched the competitor?",
      'Hiring forecast question from HR. We have 240 employees, annual attrition is 14%, and the plan is to end next year at 300 people. Assuming attrition is spread evenly over the year and applies to the average headcount, roughly how many people do we need to hire during the year? Please show the reasoning so I can put it in the deck.',
      "Here's our quarterly revenue by region, in thousands. North: 410, 455, 470, 520. South: 300, 290, 310, 335. West: 220, 260, 305, 360. Which region had the highest percentage growth from Q1 to Q4, and what was the overall Q1 to Q4 growth across all three regions combined?",
      "We ran an email test: version A went to 12,400 recipients and got 1,054 clicks, version B went to 12,380 and got 1,176 clicks. Marketing wants to declare B the winner. Is the difference significant at the 95% level, and what's the confidence interval for the difference in click rate?",
      "A customer is disputing a late fee. The contract says 1.5% per month on overdue balances, compounding monthly. The invoice was $18,400 and it's 97 days late. What's the fee, assuming 30-day months and a partial month prorated linearly?",
      'Rough estimate for a capacity planning meeting: each API request writes about 2.4 KB of logs, we serve 1,800 requests per second at peak and about a third of that on average. How much log storage do we need for 90 days of retention, in TB?',
      "Inventory question from the CFO. Cost of goods sold last year was $6.3M, beginning inventory $1.1M, ending inventory $1.5M. What's our inventory turnover ratio and days of inventory outstanding? She wants to compare it with the industry average turnover of 6.2.",
      "I'm comparing two leases for the new office. Option A: $42 per sq ft per year, 5,200 sq ft, 3% annual escalation, 5 years. Option B: $39 per sq ft per year, 5,600 sq ft, fixed rate for 5 years, plus a one-off $60k fit-out cost. Which one is cheaper in total over the term, and by how much?",
      "Quick sanity check on a fraud rule: 0.4% of transactions are fraudulent, our model flags 92% of fraud and wrongly flags 3% of legitimate transactions. If a transaction gets flagged, what's the chance it's actually fraud?",
      'Support wants to staff the phone line properly. We get about 180 calls an hour at peak, average handling time is 6 minutes, and we want agents at no more than 85% occupancy. How many agents do we need on shift at peak? A back-of-envelope answer is fine, no need for full Erlang C.',
    ],
    creative: [
      'slogan for our cybersecurity awareness webinar',
      '4-line rhyme for a retirement card',
      'name ideas for a budgeting feature in our banking app',
      'haiku about Monday standups',
      'funny title for the Q3 all-hands',
      '10 names for a coffee-themed Slack channel',
      'a pun for the data migration launch email',
      'limerick about the office printer that never works',
      'tagline for a pension savings product aimed at people in their twenties',
      "short toast for our CEO's 10-year work anniversary",
      "Can you write a short poem for Tom, our head of QA, who is leaving to sail around the world? He's famous for finding bugs nobody else sees.",
      "Come up with a tagline for our new invoice automation tool that doesn't use the words 'seamless' or 'effortless'.",
      "I need three catchy names for an internal AI hackathon, something the engineers won't roll their eyes at.",
      'Write a two-line joke about spreadsheets I can use to open a finance training session.',
      'Legal asked me for a lighthearted rhyme reminding people to finish their compliance training before Friday.',
      'Write a short bedtime-style story about a lonely server in a data center that finally gets decommissioned.',
      'Could you write lyrics for a 30-second jingle for our accounting software, with the feel of an upbeat pop song?',
      'Give me some playful taglines for our mortgage calculator page that make interest rates sound less scary.',
      "Write a funny fake 'release notes' entry announcing the office coffee machine upgrade.",
      "I'd like an acrostic poem spelling out DEADLINE for the project team's wall.",
      "Our team offsite is next Thursday and I'm running the opening. I'd like a short story, under 400 words, about a customer support agent who solves a mystery using nothing but ticket history. Light and funny, with a twist at the end. The audience is 20 people, mostly support agents and two engineers.",
      "We're renaming our analytics product. The current name, 'InsightHub', sounds generic. It's used by retail merchandisers to forecast demand and plan stock. Tone: confident, modern, not too techy. Please give 12 name options with a one-line rationale each, and avoid anything ending in -ly or -ify.",
      'Marketing brief: we launch a savings account for freelancers in September. Key benefits are automatic tax set-aside, 4.1% interest and no monthly fees. Audience is 25-40, creative professionals. I need five headline options and five short social captions, witty but not cheesy.',
      'My colleague Priya is leaving after six years in the legal department. She is known for her terrible puns, her love of rock climbing and the fact that she redlined every contract in purple ink. Could you write a farewell poem, around 16 lines, that we can read out at her leaving drinks?',
      "I'm presenting the annual security audit results to the board and it's a dry topic. Can you give me three or four clean, gentle jokes about passwords or phishing that I could sprinkle in? The audience is senior and fairly conservative, so nothing edgy.",
      'For the engineering newsletter I want a short fictional diary entry written from the point of view of a Python script that runs every night at 2am and feels underappreciated. About 200 words, dry humour.',
      "We're launching a support chatbot called Juno next month. Write a short welcome message in Juno's voice, friendly and a little quirky, that introduces itself and makes clear it can hand over to a human agent. Max 60 words.",
      "HR is organising a murder-mystery lunch for 12 people. Could you write the setup: a fictional company, the 'victim' (a stapler that went missing from the finance floor), six suspects with one-line backstories based on office stereotypes, and three clues?",
      "Write a short motivational speech in the style of a sports coach that I can give to the sales team at the start of Q4. We're 18% behind target and morale is low, so it should be energising but honest.",
      "Our product translates technical documentation into 30 languages. Give me ten tagline options that play on the idea of 'speaking every language' without sounding cliché.",
    ],
    translate: [
      "'Kindly get back to me at your earliest convenience' in German, formal",
      "how do you say 'quarterly business review' in Japanese?",
      "Spanish for 'out of office until Monday'",
      "'Merci de votre retour rapide' - English?",
      "to Brazilian Portuguese: 'Your invoice is overdue.'",
      "Dutch: 'The meeting has been moved to 3pm.'",
      "'Bitte um Freigabe' in English?",
      "Italian for 'deadline extended'",
      "Polish translation of 'Terms and Conditions'",
      "what does 'Rückfrage' mean in this German email subject line?",
      "Please translate this into French for our Lyon office: 'The server maintenance window is Saturday 02:00-04:00 CET. Expect brief VPN outages.'",
      "Can you translate this bug report from Spanish to English? 'La aplicación se cierra cuando el usuario intenta exportar el informe a PDF. Pasa solo en Android 13.'",
      "Translate our error message into German and keep the placeholders unchanged: 'Could not save {fileName}. You have {count} unsaved changes.'",
      "Our Korean distributor sent this, what does it say? '다음 주 화요일까지 수정된 견적서를 보내주시면 감사하겠습니다.'",
      "Put this tagline into Spanish, keeping the rhyme if you can: 'Track it, stack it, never lack it.'",
      "Could you translate this contract clause into English for the legal team? 'Le présent contrat est conclu pour une durée de trois ans et se renouvelle tacitement par périodes successives d'un an, sauf dénonciation par l'une des parties avec un préavis de six mois.'",
      "I need the Japanese version of this apology for a delayed delivery, in polite business register: 'We sincerely apologize for the delay. Your order will arrive by March 14.'",
      "Translate into Simplified Chinese: 'Revenue grew 12% year over year, while operating margin improved by 1.8 percentage points.'",
      "What does this Slack message from our Berlin colleague mean in English? 'Kannst du bitte kurz drüberschauen, bevor ich's rausschicke?'",
      "Translate this survey question into Swedish, Norwegian and Danish: 'How likely are you to recommend our product to a colleague?'",
      `Our German customer wrote this to support. Please translate it into English so I can forward it to the dev team:

"Guten Tag, seit dem letzten Update (Version 4.2.1) stürzt der Export nach Excel jedes Mal ab, wenn die Tabelle mehr als 10.000 Zeilen hat. Die Fehlermeldung lautet 'Speicher nicht ausreichend'. Wir haben es auf drei verschiedenen Rechnern mit Windows 11 getestet. Bitte um schnelle Rückmeldung, da unser Monatsabschluss davon abhängt. Mit freundlichen Grüßen, Katrin Vogel"`,
      `Please translate these release notes into Latin American Spanish for the customer newsletter. Keep product names and version numbers as they are.

Release 3.8 - What's new
- Dashboards now load up to 40% faster.
- You can schedule reports to be emailed every weekday.
- Fixed an issue where CSV imports failed on files with semicolons.
- Single sign-on now supports Okta and Azure AD.`,
      `HR needs this paragraph from the remote work policy in French (France) for the Paris team:

Employees may work remotely up to three days per week, subject to manager approval. Core collaboration hours are 10:00 to 15:00 local time. Company equipment must not be used by anyone other than the employee, and all work must be performed over the corporate VPN.`,
      `Can you translate this review from our Italian app store listing? Marketing wants to decide whether to reply.

"App utile per gestire le spese del team, ma dopo l'ultimo aggiornamento le notifiche arrivano in ritardo di ore. Il supporto ha risposto in fretta ma il problema non è ancora risolto. Tre stelle per ora."`,
      `Please translate the following action items into Japanese for our partners in Osaka. Keep it concise and polite.

Action items from the 12 June call:
1. Acme to share the updated API spec by 19 June.
2. Osaka team to confirm the test environment URL.
3. Both sides to agree on the go-live date at the next call (26 June).`,
      `Our Brazilian contractors need this part of the spec in Portuguese. Please don't translate the field names or the JSON.

The endpoint POST /v2/invoices creates a draft invoice. Required fields: customer_id, currency, line_items. If the currency is not supported, the API returns 422 with {"error": "unsupported_currency"}. Drafts older than 30 days are deleted automatically.`,
      `Translate this customer-facing incident notice into German, using the formal Sie form:

On 4 March between 09:12 and 10:47 UTC, about 18% of users could not log in due to a misconfigured certificate on one of our load balancers. No data was lost. We have added monitoring to detect certificate issues before they affect customers.`,
      `A supplier in Shenzhen sent this. I need an accurate English translation, not a summary, because procurement needs the exact wording about the price change.

"您好，由于原材料成本上涨，自7月1日起，型号A-200的单价将从12.5美元调整为13.8美元。6月30日前下的订单仍按原价执行。如有疑问，请随时联系。"`,
      `For our Spanish-speaking customers' newsletter, can you translate this short story into Spanish? Keep the playful tone.

Once upon a time, a small bakery in Austin started using our scheduling app. Within a month, the owner, Rosa, stopped losing orders, her staff stopped double-booking shifts, and she finally took her first weekend off in four years. "It felt like hiring a manager who never sleeps," she told us.`,
      `Legal wants an English version of this clause from the Mexican distributor agreement before Thursday's review. Please stay close to the original wording:

"CLÁUSULA OCTAVA. CONFIDENCIALIDAD. Las partes se obligan a no divulgar a terceros la información técnica, comercial o financiera que reciban con motivo del presente contrato, durante su vigencia y por un período de cinco años posteriores a su terminación."`,
    ],
    summarize: [
      `3 bullet summary of this:

Hi all, quick update: the vendor contract renewal is delayed because procurement still needs the security questionnaire. Legal has approved the redlines. Expected signature is now 15 May instead of 1 May. Budget unaffected.`,
      `tl;dr?

The Q2 board deck review moved to Wednesday. Slides 4-9 (financials) need the updated churn numbers from Ana. Slide 12 on hiring is cut. Please send edits by Tuesday noon.`,
      "one-sentence summary of the RFC I'm sharing, for the eng channel",
      "shorten this to a tweet-length summary: 'Our new reporting module lets finance teams close the books two days faster by automatically reconciling bank feeds, flagging anomalies and generating audit-ready exports.'",
      `gist of this log please

2024-05-02 03:14:07 WARN  db-pool  connections at 95% (190/200)
2024-05-02 03:14:09 ERROR api  timeout after 30000ms on /v1/orders
2024-05-02 03:14:10 ERROR api  timeout after 30000ms on /v1/orders
2024-05-02 03:15:42 INFO  db-pool  connections at 40% (80/200)
2024-05-02 03:15:43 INFO  api  latency back to normal (p95 210ms)`,
      'key points from the attached minutes, bullets only',
      "summarize: 'Per section 9.2, either party may terminate for convenience with 90 days' written notice; fees paid in advance are non-refundable except where termination results from Supplier's material breach.'",
      'executive summary of the pen test report, 5 bullets max',
      'boil this down for my manager: customer says the dashboard is slow, the export is broken, and they want a refund for March unless both are fixed by Friday.',
      `summary of this changelog for non-technical staff

- bump lodash 4.17.20 -> 4.17.21
- fix: null check in InvoiceService.getTotal
- feat: add CSV export to reports page
- chore: migrate CI to Node 20
- fix: timezone bug in scheduled emails`,
      "Can you summarize this customer review in one line for our weekly voice-of-customer report? 'I've used the tool for two years. Setup was painful and the docs are outdated, but once it's running it saves my team hours every week. Support is hit and miss, sometimes same-day answers, sometimes a week of silence. Pricing went up 20% this year, which stings.'",
      "My manager wants a quick recap of yesterday's Slack discussion about the pricing change. I'll paste it in the next message; keep the recap neutral, no opinions.",
      "Please give me the main takeaways of this paragraph from the annual report: 'Revenue increased 14% to $212 million, driven primarily by growth in enterprise subscriptions, which now account for 61% of total revenue. Operating expenses rose 9%, reflecting investment in R&D headcount. Free cash flow was positive for the first time, at $8.4 million.'",
      `Summarize the pull request description below so I can put it in the release email:

This PR replaces the legacy cron-based invoice generator with a queue-driven worker. Invoices are now generated within 60 seconds of the billing period closing instead of at midnight. Adds retries with exponential backoff and a dead-letter queue. No schema changes. Feature-flagged behind invoice_worker_v2.`,
      "Could you condense this job description into three bullet points for the internal referral post? 'We're looking for a senior data analyst who will own our marketing attribution models, partner with growth and finance, build dashboards in Looker, and mentor two junior analysts. 5+ years of SQL, Python a plus, hybrid in Manchester.'",
      `What are the key points of the email below? I only have two minutes before the call.

Hi Sam, following up on yesterday. The client accepted the revised scope but wants the go-live moved to 1 October. They also asked for weekly status reports instead of bi-weekly, and they'll only pay the second milestone after UAT sign-off. Can you confirm by Thursday whether the team can absorb this? Thanks, Elena`,
      "Summarize this story a colleague wrote for the newsletter in two sentences, I need a teaser: 'When the lights went out on the third floor last Tuesday, nobody expected the fire alarm to be the least of our problems. Within ten minutes, Dev had set up a candlelit standup, Marketing had turned it into an Instagram story, and Finance had calculated the exact cost of the lost productivity: $412, which they then spent on pizza.'",
      "Give me a TL;DR of the GDPR Article 17 text I'm pasting next, aimed at the support team.",
      'Summarize these survey results in a sentence or two: 68% of respondents rated onboarding as good or excellent, 21% neutral, 11% poor. Most common complaint: too many emails in week one. Most praised: the live training sessions.',
      "I need a short summary of this ticket for the handover note: 'Customer reports duplicate charges since 3 Apr. Verified two charges of $49 on 3 Apr and 3 May. Refund issued for one. Root cause suspected: retry logic in payment webhook. Escalated to engineering as BILL-2291, awaiting fix.'",
      `Please summarize this incident report for the exec update, three sentences max, focused on customer impact and what we're doing about it.

Incident INC-4471
Start: 2024-06-11 14:02 UTC. Detected: 14:09 UTC (PagerDuty alert on error rate > 5%).
Impact: 23% of API requests returned 503 for 41 minutes. Roughly 1,900 customers affected, 37 support tickets opened.
Cause: a config change reduced the connection pool size on the primary database from 200 to 20.
Mitigation: config rolled back at 14:38 UTC; error rate back to baseline at 14:43 UTC.
Follow-ups: add config validation in CI (owner: Platform, due 20 June); add alert on pool saturation (owner: SRE, due 14 June).`,
      `Can you turn these raw meeting notes into a short summary with decisions and owners?

marketing sync 5/14
- attendees: Jo, Raj, Mei, Carlos
- webinar signups 412 vs target 500, Raj thinks the subject line was weak
- agreed: resend to non-openers Thurs (Mei)
- Carlos: LinkedIn ads budget cut by 15% from June, need to reprioritize
- decided to pause the podcast sponsorship (Jo to tell vendor)
- case study w/ Northwind delayed, legal review pending
- next sync 5/28`,
      `Summarize this thread for me. I was on leave and need to know where things stand and whether anything is waiting on me.

From: Lina (Mon 9:14): The Helios renewal quote went out at $84k, 8% up from last year.
From: Marc (Mon 11:02): Their procurement is pushing back, they want flat pricing and a 3-year term.
From: Lina (Tue 16:40): Finance is OK with flat pricing only if they sign for 3 years and pay annually upfront.
From: Marc (Wed 10:05): They agreed in principle. They need a revised order form. @Jordan can you prepare it since you own the account?
From: Lina (Wed 10:20): +1, ideally by Friday.`,
      `Legal sent over this limitation of liability clause and I have to explain it to the product team. Can you summarize it in plain language, one short paragraph?

"12.1 Except for liability arising from (a) a party's indemnification obligations, (b) breach of Section 8 (Confidentiality), or (c) gross negligence or wilful misconduct, neither party's aggregate liability arising out of or related to this Agreement shall exceed the total fees paid or payable by Customer in the twelve (12) months preceding the event giving rise to the claim. 12.2 In no event shall either party be liable for any indirect, incidental, special, consequential or punitive damages, including lost profits, even if advised of the possibility thereof."`,
      `Here's the spec for the new notifications service. I need a one-paragraph summary for the architecture review invite, not the details.

Goals: replace three separate email/SMS/push senders with one service. Requirements: 99.9% availability, p99 delivery latency under 5 s for push, support for user-level preferences and quiet hours, per-tenant rate limits (default 100 msg/s). Out of scope: marketing campaigns, in-app inbox. Tech: Go service, Kafka for the queue, Postgres for preferences. Migration: dual-write for 4 weeks, then cut over tenant by tenant. Risks: SMS provider rate limits, duplicate sends during migration.`,
      `Please summarize the following section of the Q3 finance report in 4-5 bullet points for the sales kickoff. Don't recalculate anything, just pull out what matters.

Q3 bookings were $18.2M, up 11% QoQ and 27% YoY. Net revenue retention was 114%, down from 117% in Q2, mainly due to two large downgrades in the retail segment. Gross margin held at 78%. Sales cycle length increased from 52 to 61 days for deals above $100k. Pipeline coverage for Q4 stands at 3.1x. Headcount in sales grew from 84 to 96.`,
      `Could you summarize our updated expense policy for a Slack announcement? People only read the first two lines, so keep it really short.

Effective 1 July, all expenses over $75 require an itemized receipt. Meals while traveling are reimbursed up to $60 per day in the US and €55 per day in the EU; alcohol is not reimbursable. Economy class is required for flights under 6 hours. Expense reports must be submitted within 30 days of the expense; late submissions require director approval. Corporate cards should be used for all hotel bookings.`,
      `I pasted our last eight G2 reviews below. Summarize the recurring themes, positives and negatives, in a few bullets for the product team.

1. "Great reporting, clunky permissions."
2. "Support is fast, onboarding took too long."
3. "Love the Slack integration. Mobile app is weak."
4. "Permissions model is confusing for large teams."
5. "Reports are powerful but export to Excel breaks formatting."
6. "Onboarding was three months, way too long for our size."
7. "Best support team we deal with."
8. "Mobile app crashes on Android."`,
      `The on-call engineer pasted this into the incident channel. I'm the account manager: can you summarize in plain English what happened, so I can tell the customer? I don't need a fix.

[2024-07-02 08:01:13] ERROR SyncWorker tenant=globex job=nightly-import failed: S3 AccessDenied on s3://globex-imports/2024-07-01.csv
[2024-07-02 08:01:13] INFO  SyncWorker retry 1/3 in 60s
[2024-07-02 08:02:14] ERROR SyncWorker AccessDenied (retry 1/3)
[2024-07-02 08:04:15] ERROR SyncWorker AccessDenied (retry 3/3), giving up
[2024-07-02 08:04:15] WARN  Notifier email to ops@globex.com bounced`,
      `I'm prepping a client workshop on hybrid work. Can you summarize this excerpt in three bullet points, keeping the figures?

A 2023 survey of 3,000 knowledge workers found that 58% preferred a hybrid arrangement, 29% fully remote and 13% fully on-site. Hybrid workers reported the highest satisfaction with work-life balance but also the most frustration with meeting scheduling. Managers were more likely than individual contributors to favour on-site work (24% vs 10%). The authors caution that preferences vary widely by age and commute length.`,
    ],
    general: [
      'what does EBITDA stand for?',
      'is it rude to eat at my desk during a video call?',
      'best way for a marketer to learn SQL?',
      'who created Python, and where does the name come from?',
      'difference between GDPR and CCPA in a nutshell',
      'how long should a cover letter be?',
      "good gift for a departing manager, budget 50 euros?",
      'is Juneteenth a US federal holiday?',
      'how does a VPN actually work?',
      "OKR vs KPI, what's the difference?",
      'How do I tell a senior colleague that they keep interrupting me in meetings without making it awkward?',
      "What's the origin of the word 'bug' in software? I want to mention it in a talk.",
      "Should I accept a LinkedIn connection request from a vendor we're currently negotiating with?",
      'Can you recommend a couple of podcasts about product management for my commute?',
      'Why do quarterly earnings calls usually happen several weeks after the quarter ends?',
      "Is it better to send a follow-up email or to call a client who hasn't answered our proposal in two weeks?",
      'What are the main things to check before signing an NDA as a new employee?',
      'Conceptually, how does compound interest differ from simple interest? No numbers needed, just the idea.',
      "What's the etiquette for reply-all when the CEO is on the thread?",
      "I'm moving from an individual contributor role to team lead next month. What should I focus on in the first 90 days?",
      "I'm a support agent and we're getting more and more customers who are already angry before the conversation starts. I don't want scripts, but do you have general advice on how to de-escalate without sounding fake? Most of our contacts are by chat, some by phone.",
      "Our team is split between Lisbon, Chicago and Bangalore, and the weekly sync always lands at a terrible time for someone. What are some fair ways other companies handle this: rotating times, async updates, something else?",
      "I've been asked to speak at an industry conference for the first time. It's a 20-minute slot on our data governance program, with an audience of maybe 200. I get nervous speaking in public. Any practical tips for preparing over the next three weeks?",
      "What's the history behind JavaScript being called JavaScript when it has almost nothing to do with Java? A junior on my team asked and I realised I don't actually know.",
      "We're choosing between Notion and Confluence for our internal wiki. About 150 people, mostly non-technical, and some engineering teams already use Jira. What trade-offs do people usually mention? I'm not after a detailed feature table, just the big considerations.",
      "My manager asked me to 'own the relationship' with a new vendor. I'm an analyst and I've never done vendor management. What does that usually involve day to day, and what should I clarify with my manager first?",
      "How do US companies typically handle paid parental leave compared with European ones? I'm on the HR team drafting a benchmark slide and want the broad picture before I dig into sources.",
      "I received a suspicious email that appears to come from our CFO asking me to buy gift cards urgently. I didn't click anything. What's the right thing to do now, and who usually needs to be told?",
      "Can you explain how credit scores work in the US? My company is relocating me from Germany and everyone says I'll struggle to rent an apartment without one.",
      'We have a team tradition of a small celebration whenever someone ships a big project, but our newest hire is observing Ramadan this month. What are considerate ways to adjust the celebration so she feels included?',
    ],
  },
};
