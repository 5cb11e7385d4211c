// Hand-written multi-turn evaluation set (eighth writer). The label is the
// route for the LAST user message, given the whole conversation.

import { eighthAssistant6 } from './assistant6.mjs';

import { a, u } from '../turns.mjs';

export const conversationsEighth = {
  name: 'eighth-writer-conversations',
  about:
    'Multi-turn developer-gateway conversations whose last user message is often ambiguous alone ("now in go", "shorter", "in french pls") or switches topic, labelled with the route for that last message.',
  routes: eighthAssistant6.routes,
  conversations: [
    // ---------------- code ----------------
    [
      'code',
      [
        u(`python function to chunk a list into n-sized pieces`),
        a(`\`\`\`python
def chunks(xs, n):
    return [xs[i:i + n] for i in range(0, len(xs), n)]
\`\`\``),
        u(`now in go`),
      ],
    ],
    [
      'code',
      [
        u(`sql for daily active users from events(user_id, ts)`),
        a(`\`\`\`sql
SELECT date_trunc('day', ts) AS day, COUNT(DISTINCT user_id) AS dau
FROM events
GROUP BY 1
ORDER BY 1;
\`\`\``),
        u(`same for the sessions table, it has started_at instead of ts`),
      ],
    ],
    [
      'code',
      [
        u(`translate 'Invalid token' into Spanish`),
        a(`"Token no válido"`),
        u(`unrelated: how do I give an env var a default in bash if it's unset`),
      ],
    ],
    [
      'code',
      [
        u(`what's 2^20`),
        a(`1,048,576`),
        u(`ok write a js function that formats a byte count as KB/MB/GB with one decimal`),
      ],
    ],
    [
      'code',
      [
        u(`refactor this

def load(path):
    f = open(path)
    data = f.read()
    f.close()
    return data.split("\\n")`),
        a(`\`\`\`python
from pathlib import Path

def load(path):
    return Path(path).read_text().splitlines()
\`\`\``),
        u(`add type hints too`),
      ],
    ],
    [
      'code',
      [
        u(`regex to match an IPv4 address`),
        a(`\`^(\\d{1,3}\\.){3}\\d{1,3}$\``),
        u(`that accepts 999.1.1.1`),
        a(`Stricter, each octet 0-255:
\`^((25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1?\\d?\\d)$\``),
        u(`and ipv6?`),
      ],
    ],
    [
      'code',
      [
        u(`docker build reinstalls all node deps every time I touch a file`),
        a(`Copy the lockfile and install before copying the source, so the install layer stays cached:
\`\`\`dockerfile
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
\`\`\``),
        u(`show me the full Dockerfile, multi-stage, node 20`),
      ],
    ],
    [
      'code',
      [
        u(`haiku about rollbacks`),
        a(`Friday, five p.m. —
the green build turns amber, red.
git revert, breathe out.`),
        u(`btw why does git revert on a merge commit ask me for -m`),
      ],
    ],
    [
      'code',
      [
        u(`kubectl: list pods sorted by restart count`),
        a(`\`\`\`
kubectl get pods --sort-by='.status.containerStatuses[0].restartCount'
\`\`\``),
        u(`why [0]`),
      ],
    ],
    [
      'code',
      [
        u(`CORS error calling localhost:8080 from my app on localhost:3000`),
        a(
          `The API has to send \`Access-Control-Allow-Origin: http://localhost:3000\` (and handle the OPTIONS preflight).`,
        ),
        u(`I set Access-Control-Allow-Origin: * and requests with cookies still fail`),
        a(
          `With credentials the origin can't be \`*\`. Echo the exact origin and add \`Access-Control-Allow-Credentials: true\`; on the client use \`credentials: 'include'\`.`,
        ),
        u(`express middleware for that?`),
      ],
    ],

    // ---------------- math ----------------
    [
      'math',
      [
        u(`probability of a collision among 1M random uuid v4s`),
        a(`122 random bits, so p ≈ n²/2^123 ≈ 1e12 / 1.06e37 ≈ 9e-26. Effectively zero.`),
        u(`and with 32-bit ids?`),
      ],
    ],
    [
      'math',
      [
        u(`A/B: 200/5000 vs 245/5000, significant?`),
        a(
          `p1 = 4.0%, p2 = 4.9%, pooled 4.45%. SE ≈ 0.00412, z ≈ 2.18, two-sided p ≈ 0.029. Significant at 0.05.`,
        ),
        u(
          `What sample size per arm would I need to detect a 10% relative lift from a 4% baseline with 80% power?`,
        ),
      ],
    ],
    [
      'math',
      [
        u(`median of these: 10, 12, 15, 100, 11, 13, 14`),
        a(`Sorted: 10, 11, 12, 13, 14, 15, 100 → median 13.`),
        u(`p95 instead?`),
      ],
    ],
    [
      'math',
      [
        u(`python function for compound interest with monthly compounding`),
        a(`\`\`\`python
def compound(principal, rate, years, n=12):
    return principal * (1 + rate / n) ** (n * years)
\`\`\``),
        u(`ok forget the code, just give me the number for 10k at 4.5% over 7 years`),
      ],
    ],
    [
      'math',
      [
        u(
          `tldr: "retro moved to thursday, bring one thing that went well and one that didn't, pizza provided"`,
        ),
        a(`Retro is Thursday; bring one win and one miss. Pizza's on the house.`),
        u(`unrelated, 18% tip on 38.40?`),
      ],
    ],
    [
      'math',
      [
        u(`big-O of binary search?`),
        a(`O(log n) comparisons — the search range halves every step.`),
        u(`prove it`),
      ],
    ],
    [
      'math',
      [
        u(`how much memory is a uint64 array of 5 million elements`),
        a(`5,000,000 × 8 bytes = 40,000,000 bytes ≈ 40 MB.`),
        u(`in GiB?`),
      ],
    ],
    [
      'math',
      [
        u(`99.9% monthly SLA, how much downtime is that`),
        a(`30-day month: 43,200 min × 0.001 ≈ 43.2 minutes.`),
        u(`four nines?`),
      ],
    ],
    [
      'math',
      [
        u(`two dice, probability the sum is 7`),
        a(`6/36 = 1/6.`),
        u(`at least one 6?`),
        a(`1 − (5/6)² = 11/36 ≈ 30.6%.`),
        u(`with three dice, probability the sum is exactly 10?`),
        a(`27 of 216 outcomes → 1/8 = 12.5%.`),
        u(`and at least 10?`),
      ],
    ],
    [
      'math',
      [
        u(`good laptop for data science under 2k?`),
        a(
          `A 14" MacBook Pro with 32GB is the safe pick; on Linux, a ThinkPad P14s with 64GB RAM costs less.`,
        ),
        u(`btw if my job chews through 3.5M rows a minute, how long for 2.1 billion rows`),
      ],
    ],

    // ---------------- creative ----------------
    [
      'creative',
      [
        u(`haiku about a failing build`),
        a(`Forty tests passing,
one refuses, red and proud —
"works on my machine."`),
        u(`make it funnier`),
      ],
    ],
    [
      'creative',
      [
        u(`toast for our release party, we shipped the new billing system after 9 months`),
        a(
          `Nine months ago we said "how hard can billing be?" Tonight we know the answer: very. To the team who argued about rounding rules, survived three currency bugs and still showed up — raise your glasses to invoices that add up!`,
        ),
        u(`shorter`),
      ],
    ],
    [
      'creative',
      [
        u(`name ideas for our new logging library`),
        a(`1. Scribe
2. Logjam
3. Breadcrumb
4. Tattle
5. Ledger`),
        u(`more, animal themed`),
      ],
    ],
    [
      'creative',
      [
        u(`fix this: def double(x) return x*2`),
        a(`Missing colon:
\`\`\`python
def double(x):
    return x * 2
\`\`\``),
        u(`now a limerick about forgetting that colon`),
      ],
    ],
    [
      'creative',
      [
        u(`how do you say 'good luck on launch day' in Italian`),
        a(
          `"Buona fortuna per il giorno del lancio!" — colloquially people often say "In bocca al lupo!"`,
        ),
        u(`love it, write a short poem for the team card that ends with "in bocca al lupo"`),
      ],
    ],
    [
      'creative',
      [
        u(`limerick about kubernetes pls`),
        a(`A pod in the cluster named Lou
Kept crashing at quarter past two.
It restarted with pride,
Got OOMKilled and died,
And the pager woke all of the crew.`),
        u(`another one but about helm`),
      ],
    ],
    [
      'creative',
      [
        u(`one-shot D&D adventure in a haunted server room`),
        a(
          `**The Cold Aisle** — level 3, 4 players. The party is hired to retrieve a backup tape from a derelict colo. Act 1: the flickering badge reader. Act 2: fans that whisper old log lines. Act 3: the boss, a lich-like Cron Daemon that runs every midnight.`,
        ),
        u(`give the cron daemon a backstory`),
        a(
          `It was once a humble cleanup job written by an intern in 2007. Nobody removed it when the intern left; over the years it gained root, then purpose: delete anything older than itself.`,
        ),
        u(`now the final battle`),
      ],
    ],
    [
      'creative',
      [
        u(`5 funny commit messages`),
        a(`- "fix typo (the typo was the whole function)"
- "temporarily permanent workaround"
- "remove debug prints, add new debug prints"
- "it compiles, ship it"
- "undo the thing I did yesterday, don't ask"`),
        u(`more passive aggressive`),
      ],
    ],
    [
      'creative',
      [
        u(`average commute time in london?`),
        a(`Roughly 45 minutes each way on average, among the longest in Europe.`),
        u(
          `unrelated: 4-line poem for my colleague's last day, she ran our data platform for 5 years`,
        ),
      ],
    ],
    [
      'creative',
      [
        u(`short story for our retro about last week's outage, light tone`),
        a(
          `On Tuesday the gateway woke up grumpy. It refused every request politely, then impolitely. Three engineers, two coffees and one forgotten TLS certificate later, it forgave us...`,
        ),
        u(`make the expired certificate the villain, with a monologue`),
      ],
    ],

    // ---------------- translate ----------------
    [
      'translate',
      [
        u(`write a friendly error message for when a file upload fails`),
        a(`"Hmm, that upload didn't make it. Check your connection and give it another try."`),
        u(`in french pls`),
      ],
    ],
    [
      'translate',
      [
        u(`'Save' and 'Cancel' in German for buttons`),
        a(`Save → "Speichern", Cancel → "Abbrechen"`),
        u(`and japanese`),
      ],
    ],
    [
      'translate',
      [
        u(`tagline for our gateway product`),
        a(`"One gateway. Every model. Zero drama."`),
        u(`same in japanese for the tokyo booth`),
      ],
    ],
    [
      'translate',
      [
        u(`de version, keep keys:
{"empty.title": "No projects yet", "empty.cta": "Create project"}`),
        a(`\`\`\`json
{"empty.title": "Noch keine Projekte", "empty.cta": "Projekt erstellen"}
\`\`\``),
        u(`now fr and es`),
      ],
    ],
    [
      'translate',
      [
        u(`how do I sort a dict by value in python`),
        a(`\`\`\`python
sorted(d.items(), key=lambda kv: kv[1], reverse=True)
\`\`\``),
        u(
          `btw what does "Zeitüberschreitung beim Verbindungsaufbau" mean, our german customer keeps seeing it`,
        ),
      ],
    ],
    [
      'translate',
      [
        u(`what does this comment say: // 临时方案，下个版本删除`),
        a(`"Temporary workaround, remove in the next version."`),
        u(`and this one // 别动这段代码，线上依赖它`),
      ],
    ],
    [
      'translate',
      [
        u(`translate to japanese: "Thanks for your patience, the fix is deployed."`),
        a(`「ご辛抱いただきありがとうございます。修正を反映しました。」`),
        u(`more formal, it's going to a bank`),
      ],
    ],
    [
      'translate',
      [
        u(
          `summarize: "At 09:12 the primary DB failed over to the replica after a disk alert. Writes were unavailable for 4 minutes. No data loss. We are replacing the disk and adding alerting on replication lag."`,
        ),
        a(
          `DB failover at 09:12 caused 4 minutes without writes, no data loss; disk is being replaced and lag alerting added.`,
        ),
        u(`now put that summary in German for the Munich team`),
      ],
    ],
    [
      'translate',
      [
        u(`how do you say 'on call' in spanish, like for a rota`),
        a(`"de guardia" — e.g. "Esta semana estoy de guardia."`),
        u(`and 'rollback'?`),
      ],
    ],
    [
      'translate',
      [
        u(`onboarding text into Portuguese: "Welcome! Let's set up your first project."`),
        a(`"Bem-vindo! Vamos configurar seu primeiro projeto."`),
        u(`is that pt-BR or pt-PT?`),
        a(
          `That's pt-BR. Portuguese speakers in Portugal would usually phrase it differently, mostly in the possessive and verb choice.`,
        ),
        u(`give me the pt-PT version too`),
      ],
    ],

    // ---------------- summarize ----------------
    [
      'summarize',
      [
        u(`summarize this thread

[09:01] kai: prod-us latency spiked to 900ms p99 at 08:40
[09:03] ana: looks like the redis cluster, one shard at 100% cpu
[09:05] kai: hot key? we launched the homepage banner at 08:38
[09:08] ana: yep, banner config key read on every request, no local cache
[09:15] kai: added 5s in-process cache, deploying
[09:31] ana: p99 back to 120ms. follow-up: lint rule for uncached config reads`),
        a(`- 08:40 p99 latency jumped to 900ms in prod-us.
- Cause: new homepage banner config was a hot Redis key read on every request.
- Fix: 5s in-process cache, p99 back to 120ms by 09:31.
- Follow-up: lint rule for uncached config reads.`),
        u(`shorter`),
      ],
    ],
    [
      'summarize',
      [
        u(
          `summarize this PR: "Migrates the job scheduler from cron-in-a-container to Temporal workflows. Each existing job becomes a workflow with retry policies. Adds a compatibility shim so old job definitions still load. Removes the scheduler sidecar from 14 deployments. Staging has run on it for two weeks with no missed jobs."`,
        ),
        a(
          `Moves scheduled jobs from a cron container to Temporal workflows with retries, keeps old job definitions working via a shim, and drops the scheduler sidecar from 14 deployments; two weeks in staging with no missed jobs.`,
        ),
        u(`as 3 bullets for the release notes`),
      ],
    ],
    [
      'summarize',
      [
        u(`sql to find duplicate emails in users`),
        a(`\`\`\`sql
SELECT lower(email), COUNT(*) FROM users GROUP BY 1 HAVING COUNT(*) > 1;
\`\`\``),
        u(`unrelated, tldr this for me:

"Starting next quarter, all services must emit OpenTelemetry traces through the shared collector. The legacy Jaeger agents will be removed on 30 November. Teams using custom samplers must register them with the observability team by 1 November. Services not emitting traces by the deadline will be flagged in the quarterly ops review."`),
      ],
    ],
    [
      'summarize',
      [
        u(`tl;dr this postmortem

Summary: On 12 Feb between 03:10 and 04:25 UTC, 30% of webhook deliveries failed. A certificate on the outbound proxy expired; automatic renewal had been silently failing since January because the ACME account email bounced. Deliveries were retried and all events were eventually delivered by 06:00. Actions: monitor cert expiry at 21 days, fix the ACME contact, add alert on renewal job failures.`),
        a(
          `Expired outbound proxy cert (renewal silently broken since January) caused 30% of webhooks to fail for 75 minutes; all retried successfully by 06:00. Adding expiry monitoring and renewal failure alerts.`,
        ),
        u(`now one sentence for the status page`),
      ],
    ],
    [
      'summarize',
      [
        u(`summarize the meeting notes

- roadmap review, Q4
- search v2 slips to November, blocked on the embedding model eval (Priya)
- mobile team wants the new auth SDK by Oct 15, Ben says doable if scope stays
- decided to freeze new integrations until the partner API is stable
- Lucia will draft the deprecation notice for API v1
- budget for the second GPU cluster approved, Marcus to place the order`),
        a(
          `Q4 review: search v2 moves to November pending Priya's embedding eval; auth SDK for mobile by Oct 15 if scope holds; new integrations frozen until the partner API stabilises; v1 deprecation notice and GPU cluster order are in motion.`,
        ),
        u(`just the action items, with owners`),
      ],
    ],
    [
      'summarize',
      [
        u(
          `tldr of this abstract: "We show that mixture-of-experts language models with top-2 routing achieve the quality of dense models with 3.8x the active parameters, at equal training compute. Gains are largest on knowledge-heavy benchmarks and vanish on multi-step arithmetic. We release checkpoints from 1B to 32B total parameters."`,
        ),
        a(
          `MoE models with top-2 routing match dense models ~4x their active size for the same training compute, mostly on knowledge tasks, not arithmetic; checkpoints 1B–32B are released.`,
        ),
        u(`even simpler, it's for my manager`),
      ],
    ],
    [
      'summarize',
      [
        u(`what's the weather usually like in amsterdam in october`),
        a(`Mild and wet: around 10–15°C, frequent rain, windy. Bring a rain jacket.`),
        u(`what changed here, in a few words?

## 2.8.0
- feat: \`gw models\` lists models available to your team
- feat: streaming now supported for tool calls
- fix: \`--profile\` ignored when GW_TOKEN was set
- fix: proxy settings not applied to websocket connections
- chore: drop Node 16`),
      ],
    ],
    [
      'summarize',
      [
        u(
          `summarize this slack thread: "jo: can we drop the nightly full reindex? / lee: only if the incremental one handles deletes / jo: it does since 4.1 / lee: ok then drop it, keep a weekly full one as a safety net / jo: 👍 will change the schedule"`,
        ),
        a(
          `Nightly full reindex is being dropped since incremental indexing handles deletes since 4.1; a weekly full reindex stays as a safety net. Jo is updating the schedule.`,
        ),
        u(
          `same for this one: "max: staging is down again / sam: disk full, the log volume is 20GB / max: can we rotate? / sam: added logrotate, 7 days, compressed / max: and alert at 80%? / sam: done"`,
        ),
      ],
    ],
    [
      'summarize',
      [
        u(
          `translate to english: "Ab Montag gilt für alle Deployments in die Produktionsumgebung das Vier-Augen-Prinzip. Jede Änderung muss von einer zweiten Person freigegeben werden. Notfall-Hotfixes sind ausgenommen, müssen aber innerhalb von 24 Stunden nachträglich geprüft werden."`,
        ),
        a(
          `"From Monday, the four-eyes principle applies to all production deployments. Every change must be approved by a second person. Emergency hotfixes are exempt but must be reviewed retroactively within 24 hours."`,
        ),
        u(`now the tldr`),
      ],
    ],
    [
      'summarize',
      [
        u(`summarize RFC 6749 in a paragraph`),
        a(
          `OAuth 2.0 lets a client get limited access to a user's resources without their password. The authorization server issues access tokens after the resource owner grants consent through one of several grant types (authorization code, client credentials, etc.), and clients present those tokens to resource servers.`,
        ),
        u(`which section covers refresh tokens? summarize just that part`),
      ],
    ],

    // ---------------- general ----------------
    [
      'general',
      [
        u(`best laptop for dev work under 2k`),
        a(
          `MacBook Air M3 with 24GB, ThinkPad T14s, or Framework 13 if you want to repair it yourself.`,
        ),
        u(`which one has the best battery`),
      ],
    ],
    [
      'general',
      [
        u(`why doesn't ^\\d+$ match "1,000"`),
        a(`\`\\d\` doesn't include the comma. Use \`^\\d{1,3}(,\\d{3})*$\`.`),
        u(`thanks. unrelated, any tips for sleeping better during on-call weeks?`),
      ],
    ],
    [
      'general',
      [
        u(
          `got a staff engineer offer elsewhere, or I stay senior here where I like the team. thoughts?`,
        ),
        a(
          `If the new role has real staff scope (cross-team problems, a sponsor), I'd lean toward taking it. Titles are easier to get on a move, and a team you like doesn't stay the same forever.`,
        ),
        u(`why`),
      ],
    ],
    [
      'general',
      [
        u(`quick weeknight curry recipe`),
        a(
          `Onion, garlic, ginger in oil; 2 tbsp curry paste; a can of coconut milk; chicken thighs in chunks; simmer 15 min; lime and cilantro at the end.`,
        ),
        u(`vegan version?`),
      ],
    ],
    [
      'general',
      [
        u(`how does DNS work, conceptually`),
        a(
          `It's the internet's phone book: your computer asks a resolver, which asks the root servers, then the ".com" servers, then the domain's own servers, and caches the answer.`,
        ),
        u(`and where does a CDN fit in that picture`),
      ],
    ],
    [
      'general',
      [
        u(`haiku about on-call`),
        a(`Phone face-down, still lit.
Three a.m. and the graph spikes —
it was the cron job.`),
        u(`lol. btw what's a good gift for a team lead who's leaving`),
      ],
    ],
    [
      'general',
      [
        u(`book recommendations on distributed systems`),
        a(
          `Designing Data-Intensive Applications (Kleppmann), Database Internals (Petrov), and the Raft paper for something short.`,
        ),
        u(`something non-technical for vacation`),
      ],
    ],
    [
      'general',
      [
        u(`2**10`),
        a(`1024`),
        u(`cool. how did we end up using powers of two for memory sizes, historically?`),
      ],
    ],
    [
      'general',
      [
        u(`hey`),
        a(`Hey! What are you working on today?`),
        u(`nothing much, just tired. long week`),
      ],
    ],
    [
      'general',
      [
        u(`I'm giving my first conference talk next week and I'm nervous`),
        a(
          `Normal! Rehearse out loud three times, time it, and know your first two minutes cold — the nerves usually fade once you're past the opening.`,
        ),
        u(`what if someone asks a question I can't answer`),
        a(
          `Say "good question, I don't know, let's talk after" — audiences respect that far more than bluffing.`,
        ),
        u(`and how do I stop saying "um" all the time`),
        a(
          `Pause instead. Silence feels long to you, but to the audience it sounds deliberate. Record a run-through and count them.`,
        ),
        u(`ok last thing, what should I wear`),
      ],
    ],
  ],
};
