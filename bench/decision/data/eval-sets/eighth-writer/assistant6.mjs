// Hand-written evaluation set (eighth writer): developers and data people
// talking to a team AI gateway from terminal and IDE.

export const eighthAssistant6 = {
  name: 'eighth-writer-assistant6',
  about: 'Six-route assistant router for a developer team gateway, with terse, jargon-heavy and paste-heavy messages, including hard cases whose vocabulary belongs to another route.',
  routes: [
    {
      name: 'code',
      description: 'Writing, debugging, reviewing, explaining or refactoring source code, queries, shell commands, configs and build or deploy tooling.',
      examples: [
        `why does this segfault when n=0`,
        `bash one-liner to find files over 1GB under /var`,
        `review this migration before I merge it`,
        `TypeError: Cannot read properties of undefined (reading 'map') — how do I fix`,
        `convert this useEffect into a custom hook`,
      ],
    },
    {
      name: 'math',
      description: 'Calculations, proofs, probability, statistics, algebra, unit conversions and quantitative estimates, including the math behind algorithms and systems.',
      examples: [
        `what's 17% of 2340`,
        `prove the sum of two odd numbers is even`,
        `birthday paradox probability for 23 people?`,
        `eigenvalues of [[2,1],[1,2]]`,
        `how many seconds in a leap year`,
      ],
    },
    {
      name: 'creative',
      description: 'Original creative writing such as poems, stories, jokes, toasts, names, slogans, parodies and game scenarios.',
      examples: [
        `write a haiku about merge conflicts`,
        `10 name ideas for our internal CLI tool`,
        `short toast for the team's launch dinner`,
        `limerick about a flaky test`,
        `funny slack status ideas for on-call week`,
      ],
    },
    {
      name: 'translate',
      description: 'Translating text between human languages, including UI strings, locale files, error messages, docs, comments and emails.',
      examples: [
        `translate 'Save changes?' into German`,
        `what does 'Verbindung abgelehnt' mean`,
        `put this email into polite Japanese`,
        `these into pt-BR pls: Cancel, Retry, Delete account`,
        `how do you say 'deployment window' in French`,
      ],
    },
    {
      name: 'summarize',
      description: 'Condensing provided or well-known text such as threads, PRs, postmortems, papers, release notes or meeting notes into a shorter summary or key points.',
      examples: [
        `tldr this thread`,
        `summarize this PR description in 3 bullets`,
        `key takeaways from this postmortem?`,
        `condense these meeting notes into action items`,
        `shorten this abstract to one sentence`,
      ],
    },
    {
      name: 'general',
      description: 'Everything else: general knowledge, advice, recommendations, conceptual explanations, everyday tasks and small talk.',
      examples: [
        `how does DNS actually work, high level`,
        `any good sci-fi books for a long flight?`,
        `should I ask for a raise before or after my review`,
        `quick dinner idea with chickpeas and spinach`,
        `hey how's it going`,
      ],
    },
  ],
  messages: {
    code: [
      `git undo last commit but keep changes`,
      `regex for semver with optional pre-release`,
      `docker compose healthcheck for postgres?`,
      `pods stuck in Terminating for 20 min, safe to force delete?`,
      `tsc: Type 'string | undefined' is not assignable to type 'string'. cleanest fix?`,
      `jq: just the .items[].metadata.name values`,
      `sql: second highest salary per dept`,
      `why is this slow

for (const id of ids) {
  const row = await db.get(id);
  results.push(row);
}`,
      `translate this to idiomatic go:

with open("cfg.json") as f:
    cfg = json.load(f)
port = cfg.get("port", 8080)`,
      `rust: can't move out of Vec in a for loop, idiom?`,
      `I have a Go HTTP server that leaks goroutines under load. What's the usual way to find which handler is leaking?`,
      `Can you write a GitHub Actions workflow that runs pytest on 3.10, 3.11 and 3.12 and caches pip?`,
      `What's the actual difference between useMemo and useCallback, and when does it matter for perf?`,
      `nginx returns 413 on uploads bigger than 1MB. which directive am I missing?`,
      `Write a Makefile target that builds the image, tags it with the short git sha, and pushes to registry.internal.`,
      `Is there a clean way to type a TS function whose return type depends on a boolean flag argument?`,
      `postgres EXPLAIN shows Seq Scan on orders even though there's an index on created_at. why would the planner skip it?`,
      `refactor so it doesn't nest 4 levels: if user: if user.active: if user.org: if user.org.plan: return user.org.plan.tier`,
      `how do I make a bash script exit on first error but still run a cleanup function`,
      `Write a function that computes the p95 of a list of latencies without sorting the whole list — n is around 10 million.`,
      `what's wrong here

Traceback (most recent call last):
  File "/app/worker.py", line 88, in process_batch
    rows = [transform(r) for r in batch]
  File "/app/worker.py", line 88, in <listcomp>
    rows = [transform(r) for r in batch]
  File "/app/transform.py", line 23, in transform
    ts = datetime.fromisoformat(r["created_at"])
ValueError: Invalid isoformat string: '2024-03-11T09:15:22Z'

this is python 3.10 in the container, works on my laptop`,
      `review pls, is the non-null assertion ok here?

--- a/src/cache.ts
+++ b/src/cache.ts
@@ -12,9 +12,11 @@ export class LruCache<K, V> {
   get(key: K): V | undefined {
-    const v = this.map.get(key);
-    if (v === undefined) return undefined;
-    this.map.delete(key);
-    this.map.set(key, v);
-    return v;
+    if (!this.map.has(key)) return undefined;
+    const v = this.map.get(key)!;
+    this.map.delete(key);
+    this.map.set(key, v);
+    this.hits++;
+    return v;
   }`,
      `this image is 1.8GB, how do I get it down

FROM python:3.11
WORKDIR /app
COPY . .
RUN apt-get update && apt-get install -y build-essential libpq-dev
RUN pip install -r requirements.txt
CMD ["gunicorn", "app:app", "-b", "0.0.0.0:8000"]`,
      `pod keeps getting OOMKilled, what's off?

apiVersion: apps/v1
kind: Deployment
metadata:
  name: ingest
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: ingest
          image: registry.internal/ingest:1.14.2
          resources:
            requests:
              memory: "256Mi"
            limits:
              memory: "256Mi"
          env:
            - name: JAVA_OPTS
              value: "-Xmx512m"`,
      `explain this query to me like I'm new to the codebase

SELECT u.id, u.email,
       COUNT(o.id) FILTER (WHERE o.status = 'paid') AS paid_orders,
       MAX(o.created_at) AS last_order
FROM users u
LEFT JOIN orders o
  ON o.user_id = u.id AND o.created_at > now() - interval '90 days'
GROUP BY u.id
HAVING COUNT(o.id) FILTER (WHERE o.status = 'paid') = 0;`,
      `takes like 40s on 50k items??

function mergeUnique(a, b) {
  const out = [...a];
  for (const x of b) {
    if (!out.includes(x)) out.push(x);
  }
  return out;
}`,
      `Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "name" is null
    at com.acme.billing.InvoiceFormatter.pad(InvoiceFormatter.java:41)
    at com.acme.billing.InvoiceFormatter.format(InvoiceFormatter.java:27)
    at com.acme.billing.Main.main(Main.java:12)

name comes from customer.getDisplayName(), which is null for some legacy accounts. best place to fix it?`,
      `this cron script silently does nothing, ideas?

#!/bin/sh
cd /opt/reports
for f in $(ls *.csv); do
  python3 upload.py $f >> /var/log/upload.log
done

crontab line is: 0 2 * * * /opt/reports/run.sh`,
      `how do I get around this without cloning everything

error[E0502]: cannot borrow \`self.items\` as mutable because it is also borrowed as immutable
  --> src/inventory.rs:34:17
   |
32 |         for item in self.items.iter() {
   |                     ----------------- immutable borrow occurs here
33 |             if item.qty == 0 {
34 |                 self.items.remove(item.idx);
   |                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^ mutable borrow occurs here`,
      `can you clean this up

def get_status(code):
    if code == 200:
        return "ok"
    elif code == 201:
        return "created"
    elif code == 404:
        return "not found"
    elif code == 500:
        return "server error"
    else:
        return "unknown"`,
    ],

    math: [
      `2**32 / 1e6`,
      `log2(1e9)?`,
      `how many GiB is 3.2e10 bytes`,
      `derivative of x^2 * ln(x)`,
      `1/0.97**12`,
      `is 2^61 - 1 prime`,
      `65 mph in m/s`,
      `closed form for 1^2 + 2^2 + ... + n^2`,
      `(1 - 0.999**365) as a percent`,
      `det of [[1,2,3],[4,5,6],[7,8,10]]`,
      `If I generate 10 million random 64-bit IDs, what's the probability of at least one collision?`,
      `3 replicas, each 99.5% available, independent failures. What's the availability if we need at least 2 up?`,
      `Time complexity of T(n) = 2T(n/2) + n log n? Show which master theorem case applies.`,
      `A/B test: control 480/12000 conversions, variant 540/12000. significant at 0.05?`,
      `Each insert takes 4ms and I have 8 parallel writers. How many rows per day is that, max?`,
      `Prove that any comparison-based sort needs Omega(n log n) comparisons in the worst case.`,
      `Rough estimate: storage for one year of logs at 2k lines/sec, ~300 bytes per line, gzip ratio 10x?`,
      `Expected number of rolls of a fair d6 until every face has shown up at least once?`,
      `If each backend call has a 1% chance of exceeding 200ms, what's the chance a request fanning out to 20 calls sees at least one slow one?`,
      `solve for x: 3x + 7 = 2(x - 4) + 19`,
      `find the rank and a basis for the null space

A = [[1, 2, -1, 3],
     [2, 4,  0, 2],
     [3, 6, -1, 5]]`,
      `here's the export from our experiment, compute the difference in means and a 95% CI

variant,users,mean_session_sec,std_session_sec
control,8421,212.4,96.1
treatment,8390,219.8,101.7

is the difference real or noise?`,
      `what's the exact big-O of this? not a code review, I just need the count worked out

for i in range(n):
    j = 1
    while j < n:
        j *= 2
        for k in range(i):
            total += 1`,
      `We use consistent hashing with 150 virtual nodes per server and 12 servers. Assuming uniform hashing, roughly what's the standard deviation of each server's load share? Order of magnitude is fine, I need it to argue in a design review that we don't need more vnodes.`,
      `M/M/1 question: arrivals 45 req/s, service rate 50 req/s. Average time in system and average queue length? Then redo it with service rate 60 so I can show the difference in the doc.`,
      `mean, median and p90 of these latencies (ms):

12, 15, 11, 230, 14, 13, 16, 18, 12, 11, 400, 14, 15, 13, 17, 12, 19, 14, 13, 16`,
      `I need a clean proof for a design doc: a binary tree where every internal node has exactly two children and there are n leaves has exactly n - 1 internal nodes. Induction is fine, keep it short but rigorous.`,
      `Bloom filter sizing: 50M keys, false positive rate under 0.1%. How many bits and how many hash functions? Plug the numbers into m = -n ln p / (ln 2)^2 and k = (m/n) ln 2 and show the steps.`,
      `Our GPU box draws 2.4 kW under load and runs 18h a day. Electricity is €0.31/kWh. Monthly cost? And how many kg of CO2 per month if grid intensity is 380 g/kWh?`,
      `exponential backoff: base 200ms, factor 2, max 6 retries, full jitter (uniform between 0 and the current delay), each delay capped at 10s. what's the worst-case total wait and the expected total wait?`,
    ],

    creative: [
      `haiku about a red CI pipeline`,
      `5 funny commit messages for a friday deploy`,
      `limerick about kubernetes`,
      `punchy name for a feature flag service`,
      `two-line poem about null pointers`,
      `pun name for the data team's slack channel`,
      `sonnet about tech debt, shakespeare style`,
      `rap verse about yaml indentation`,
      `fortune cookie messages for engineers`,
      `villanelle about waiting for a docker build`,
      `Write a short toast for our release party — v3.0 shipped after 14 months and a lot of late nights. Under a minute when read aloud.`,
      `Can you write a ~300 word story for our retro about a sprint where everything that could go wrong did, told like a noir detective?`,
      `Give me a D&D one-shot set inside a haunted data center, party of 4 level-3 characters, final boss is a rogue cron job.`,
      `Bedtime story for my 5 year old about a little robot who learns to fix bugs, please.`,
      `We're naming our new internal vector database. 15 options, mix of mythological and silly.`,
      `Farewell song lyrics for Priya to the tune of 'Country Roads', she's leaving and she loves Terraform way too much.`,
      `Invent a fake O'Reilly book cover for 'Debugging Production at 3am' — title, subtitle and which animal.`,
      `Write a mock-epic poem about the day someone ran DROP TABLE users on staging.`,
      `tagline for our gateway product that would look good on a hoodie`,
      `Write the opening of a choose-your-own-adventure where the reader is an on-call engineer paged at 2am. End with three choices.`,
      `turn this log into a dramatic poem, the more overwrought the better

2024-05-02T03:14:07Z ERROR db-pool: connection timeout after 30000ms
2024-05-02T03:14:07Z WARN  retrying (attempt 4/5)
2024-05-02T03:14:37Z ERROR db-pool: connection timeout after 30000ms
2024-05-02T03:14:37Z FATAL giving up, exiting with code 137`,
      `write a haiku for each of these services based on what they do:
- auth-svc: issues JWTs, hates clock skew
- billing-worker: retries Stripe webhooks forever
- search-indexer: reindexes nightly, eats all the RAM
- gateway: blames everyone else`,
      `Here's the team and their quirks, write funny superlatives for the year-end party:

Marco - always says "works on my machine"
Lin - 400 open browser tabs at all times
Dev - wants to rewrite everything in Rust
Sasha - writes the best postmortems
Olu - camera has never been on`,
      `Write a short sci-fi story (~500 words) where our AI gateway becomes sentient but can only communicate through HTTP status codes. It should end on a 418.`,
      `Write a parody job posting for a "Senior Full-Stack Ninja Rockstar" that requires 10 years of experience in a framework released last year. Affectionate, not mean — it's for the internal newsletter.`,
      `rewrite this changelog entry as a pirate captain's announcement

### Fixed
- Race condition in session refresh (#4412)
- Memory leak in websocket handler when clients disconnect mid-frame
### Added
- \`--dry-run\` flag for the migrate command`,
      `Write a eulogy for our legacy monolith, decommissioned today. Perl, ran since 2009, processed every single order, nobody ever understood the billing module, and it outlived three CTOs. Funny but a bit heartfelt, I'm reading it at the wake (pizza) on Friday.`,
      `Hackathon theme is "make the terminal fun again". Give me 8 project pitches, each with a silly name and a one-line description.`,
      `comic strip script, 6 panels: a junior asks a senior why tests pass locally but fail in CI, and the senior's answers get more and more philosophical until the last panel`,
      `motto for the SRE team, latin-sounding if possible`,
    ],

    translate: [
      `'Your session has expired' in Spanish`,
      `what does 'Der Vorgang konnte nicht abgeschlossen werden' mean`,
      `ja -> en: 設定を保存しました`,
      `how do you say 'pull request' in Korean, or do they just use the English term?`,
      `'Retry in {seconds}s' → French, keep the placeholder`,
      `en -> it: "Forgot your password?"`,
      `"rate limit exceeded" in polish`,
      `to dutch: Upload complete`,
      `'Not found' in simplified chinese, short UI label`,
      `gibt es ein gutes deutsches Wort für "rollback" oder sagt man einfach Rollback?`,
      `what does this comment say? // 这里不能用缓存，否则会导致重复扣款`,
      `Can you translate this error from our vendor's API? "Die Anfrage wurde abgelehnt, da das Kontingent für diesen Monat erschöpft ist."`,
      `Translate our 404 page copy into Brazilian Portuguese: "Looks like this page took a wrong turn. Let's get you back home."`,
      `Put "Are you sure you want to delete this workspace? This cannot be undone." into Japanese, polite but not stiff.`,
      `Someone posted this about our SDK on a Russian forum: "Библиотека падает при пустом токене". What's it saying?`,
      `"Your free trial ends in 3 days" in French, German, Spanish and Italian please`,
      `Turkish customer wrote "Faturamda iki kez ücret alınmış görünüyor". english pls`,
      `How would a native Spanish speaker say "ship it" in a casual team chat?`,
      `commit message is in french, what does it say: "corrige le plantage au démarrage quand le fichier de config est absent"`,
      `Arabic for "Sign in with Google", it's for a button label`,
      `translate the values to german, keep the keys as is

{
  "nav.dashboard": "Dashboard",
  "nav.settings": "Settings",
  "billing.upgrade": "Upgrade plan",
  "billing.cancel": "Cancel subscription",
  "errors.network": "Network error. Check your connection and try again.",
  "toast.saved": "Changes saved"
}`,
      `customer email, need it in english asap

お世話になっております。
昨日から管理画面にログインできない状態が続いております。
パスワードリセットのメールも届きません。
至急ご確認いただけますでしょうか。
よろしくお願いいたします。`,
      `README para into spanish pls, leave the commands untouched:

## Installation
Install the CLI with npm install -g @acme/gw. Then run gw login to authenticate with your team's gateway. Your token is stored in ~/.config/gw/credentials and is never sent to third parties.`,
      `UI strings into ja and ko:
- Copy to clipboard
- Copied!
- Show more
- Hide details
- Last updated {date}`,
      `our ops guy in Munich pasted this from the server, what does it say?

Fehler 0x80070005: Zugriff verweigert. Der Dienst "SyncAgent" konnte nicht gestartet werden. Bitte prüfen Sie die Berechtigungen des Dienstkontos.`,
      `teammate from Buenos Aires posted this in #infra, translate?

"Che, el deploy de anoche rompió el healthcheck del balanceador, lo revertí a las 2am. Mañana lo vemos con calma, no toquen la rama main hasta entonces."`,
      `fr version of this locale file, only translate the values

welcome:
  title: "Welcome back, %{name}"
  subtitle: "You have %{count} unread notifications"
buttons:
  continue: "Continue"
  skip: "Skip for now"`,
      `what do these comments mean? inherited this repo from the shanghai team

# 初始化连接池，最大连接数不要超过50
pool = create_pool(max_size=50)

# TODO: 重试逻辑还没写完，先别上线
def fetch(url):
    ...`,
      `Can you translate this reply into business Japanese for the customer?

Hi Tanaka-san, thanks for reporting this. We've identified the cause — a misconfigured SSO redirect — and deployed a fix this morning. Please try logging in again and let us know if the issue persists.`,
      `these validation errors into hindi for the app:
1. Invalid email address
2. Password must be at least 8 characters
3. Something went wrong, please try again later`,
    ],

    summarize: [
      `tldr pls

we're moving standup from 9:30 to 10:00 starting monday because half the team is in lisbon now, also friday standups become async in #standup, just post yesterday/today/blockers by 11`,
      `summarize the Raft paper in 5 bullets`,
      `one-line summary of this commit msg: "refactor(auth): extract token refresh into TokenManager, add jitter to refresh timer, remove deprecated v1 session endpoints, bump jose to 5.2.0"`,
      `shorter version of this for the changelog: We fixed an issue where, under certain conditions involving concurrent writes to the same key from multiple regions, the replication layer could apply updates out of order, which led to stale reads for up to 30 seconds.`,
      `compress my standup update into 2 lines: yesterday I spent most of the day chasing the flaky e2e test in checkout, turned out to be a timezone issue in the fixture; today I'm pairing with Ana on the payments retry PR and then reviewing Tom's migration; blocked on staging db creds`,
      `tldr of the Dynamo paper, just the core ideas`,
      `gist of the Kubernetes 1.30 release notes, only the stuff that could break us`,
      `summarize chapter 3 of Designing Data-Intensive Applications in a paragraph`,
      `recap of "Out of the Tar Pit", short`,
      `tldr the bitcoin whitepaper`,
      `summarize the above`,
      `executive summary, 3 sentences max:

Q3 platform costs rose 22% QoQ to $184k, driven mainly by GPU inference nodes (+$31k) and cross-region egress (+$9k). Storage was flat. We right-sized 40 idle dev clusters, saving ~$6k/mo from September. Reserved instance coverage is at 61%, target is 80% by end of Q4.`,
      `key points of this abstract?

We present a method for reducing tail latency in distributed key-value stores by speculatively issuing redundant requests to replicas once a request exceeds the 95th percentile of recent response times. Evaluated on a 64-node cluster under YCSB workloads A-F, our approach reduces p99.9 latency by 38-61% while increasing total load by only 4.2%. We further show that adaptive thresholds outperform fixed hedging delays across all tested workloads.`,
      `summarize this PR for the release channel, 2-3 bullets

## What
Replaces the hand-rolled retry loop in \`http/client.go\` with \`backoff.Retry\` from cenkalti/backoff/v4. Adds a per-route retry policy read from \`gateway.yaml\` (\`retry.max_attempts\`, \`retry.initial_interval\`, \`retry.max_elapsed\`).

## Why
The old loop retried on every non-2xx, including 400s and 422s, which caused duplicate writes on the orders API (see INC-2291). It also had no jitter, so after the March 14 outage all clients retried in lockstep.

## How
- Only 408, 429, 502, 503, 504 and network errors are retried
- Full jitter, capped at 5s
- Idempotency-Key header is now required for retried POSTs; requests without it are not retried
- New metric: \`gateway_retries_total{route,code}\`

## Testing
Unit tests for the policy parser, integration test against a flaky httptest server (30% 503 rate), ran in staging for 48h — retry volume down 71%, no duplicate order writes.

## Rollout
Behind \`RETRY_V2\` flag, default off. Enable per route.`,
      `4-line summary of this postmortem for leadership

Incident INC-2317 — Elevated 5xx on API gateway
Duration: 2024-06-03 14:02 to 15:47 UTC (1h45m)
Impact: ~18% of requests to /v2/* returned 503. Roughly 2,400 customers affected, 3 enterprise tickets.
Timeline:
14:02 Deploy of gateway 2.41.0 begins (canary 10%)
14:09 Canary metrics green, rollout to 100%
14:20 Error rate climbs to 6%, on-call paged
14:38 Identified connection pool exhaustion to auth-svc; pool size reduced from 200 to 20 by a typo in the Helm values
15:05 Rollback attempted, failed because the previous image had been garbage-collected from the registry
15:31 Hotfix with corrected pool size deployed
15:47 Error rate back to baseline
Root cause: typo in values-prod.yaml (authPool.maxConns: 20 instead of 200), not caught because canary traffic never exceeded 20 concurrent connections.
Action items: schema validation for Helm values (Kenji), retain last 10 images in registry (Maria), load-based canary gate (SRE).`,
      `summarize this thread, who decided what

[10:02] dana: are we still doing the postgres 16 upgrade this sprint?
[10:04] raj: I'd rather not, pgvector 0.7 isn't supported on RDS 16 yet
[10:05] dana: it is as of last week, I checked the changelog
[10:07] raj: oh ok. then the blocker is the logical replication slot for the CDC pipeline, debezium needs a restart and we lose ~10min of events
[10:09] mia: we can backfill from the WAL archive, did it in Jan
[10:12] dana: ok plan: upgrade staging wed, prod next tue 06:00 UTC, mia owns the backfill
[10:13] raj: 👍 I'll write the runbook
[10:20] tom: can we bump max_connections while we're there? we hit 480/500 last friday
[10:22] dana: separate change please, don't want two variables`,
      `condense this RFC section to one paragraph

3.2 Token Bucket Semantics
Each API key is assigned a bucket with capacity C and refill rate R tokens per second. A request consumes one token; requests with a body larger than 1 MiB consume ceil(size / 1 MiB) tokens. When the bucket is empty, the gateway MUST respond with 429 and a Retry-After header equal to ceil((1 - tokens) / R) seconds. Buckets are stored in Redis using a Lua script to guarantee atomic check-and-decrement; clients MUST NOT assume per-node buckets. For keys with the "burst" entitlement, C is multiplied by 4 but R is unchanged. Implementations SHOULD emit the X-RateLimit-Remaining header on every response, including 429s.`,
      `turn this into a short summary + action items

arch sync 2024-07-11
- attendees: li, omar, jess, paul
- discussed moving event bus from rabbitmq to kafka. omar: throughput is fine today (~3k msg/s) but replay is the real need. jess worried about ops cost, nobody has kafka experience
- paul suggested redpanda, kafka-compatible api, single binary. li likes it
- agreed to spike redpanda for 2 weeks, omar leads
- also: shared protobuf repo is a mess, 3 teams pin different versions. jess to propose buf + a versioning policy by next sync
- paul to check if MSK pricing changes the picture
- next sync 07-25`,
      `what actually matters for us in these notes? we're on python 3.11 and only use the async client

v4.2.0
- Added: support for Python 3.13
- Changed: sync client now uses httpx instead of requests (breaking for custom adapters)
- Fixed: async client leaked connections when a stream was cancelled mid-read (#812)
- Fixed: typo in error message for invalid region
- Deprecated: \`timeout\` kwarg on AsyncClient.request, use \`timeouts=Timeouts(...)\`; removed in 5.0
- Removed: Python 3.8 support`,
      `summarize this deploy log in 2 lines for the incident channel

[12:00:01] deploy started: api@a41f2c9 -> prod-eu
[12:00:14] pulling image registry.internal/api:a41f2c9 ... done (812MB)
[12:00:40] running migrations: 0142_add_index_orders_user_id ... ok (31s)
[12:01:12] rolling update: 0/12 pods ready
[12:03:55] rolling update: 9/12 pods ready
[12:04:30] readiness probe failed on api-7d9f-x2kq: GET /healthz 503
[12:04:31] readiness probe failed on api-7d9f-p8ml: GET /healthz 503
[12:06:00] rollout timeout (progressDeadlineSeconds=360), pausing
[12:06:02] 9/12 pods on new version, 3 on old version
[12:06:02] deploy finished with status: DEGRADED`,
      `email from legal, what's the short version and what do I actually need to do?

Hi all, following the review of our data processing agreements, please note that effective 1 September all subprocessors handling EU personal data must be listed in the updated Annex III. Engineering teams are asked to (a) confirm by 15 August which third-party services receive user identifiers, including logging and analytics vendors; (b) ensure that no production data is copied into non-EU regions for testing purposes; and (c) document retention periods for each data store in the data catalog. Teams that cannot meet the deadline should contact privacy@ to agree an exception. Further guidance on pseudonymisation will follow in a separate note.`,
      `tldr of this issue thread?

@kfrost: Memory grows unbounded with streaming responses + keep-alive. Repro attached, RSS goes from 80MB to 2.1GB over 6h.
@maintainer1: Can you try 3.4.1? We fixed a buffer leak there.
@kfrost: Same on 3.4.1. Heap profile shows []byte from bufio.Reader held by connState.
@jli: Seeing this too, but only behind an HTTP/2 proxy.
@maintainer1: Confirmed, the h2 path doesn't release the read buffer on RST_STREAM. Fix in #2201.
@kfrost: #2201 fixes it for me, RSS stable at ~95MB.
@maintainer1: Released in 3.4.2. Closing.`,
      `one sentence for a non-ML PM, what is this abstract saying

We propose Low-Rank Adaptation, or LoRA, which freezes the pretrained model weights and injects trainable rank decomposition matrices into each layer of the Transformer architecture, greatly reducing the number of trainable parameters for downstream tasks. Compared to GPT-3 175B fine-tuned with Adam, LoRA can reduce the number of trainable parameters by 10,000 times and the GPU memory requirement by 3 times.`,
      `what's being changed here, in short? reviewing before apply

Terraform will perform the following actions:
  # aws_security_group_rule.ingress_443 will be created
  # aws_instance.bastion will be destroyed
  # aws_db_instance.main will be updated in-place
      ~ instance_class    = "db.r6g.large" -> "db.r6g.xlarge"
      ~ allocated_storage = 200 -> 400
Plan: 1 to add, 1 to change, 1 to destroy.`,
      `summarize the common themes in this NPS feedback

- "CLI is great but the docs are way out of date"
- "Love the gateway, hate that tokens expire every 8 hours"
- "Docs for streaming are missing entirely??"
- "Latency from Singapore is bad, 600ms+"
- "Token refresh keeps breaking my scripts"
- "Please add an APAC region"
- "Best internal tool we have, honestly"`,
      `boil these interview notes down to the top 3 pain points

User 1 (data analyst): exports from the warehouse time out after 5 min, ends up splitting queries by month manually. Doesn't trust the dashboard numbers because they don't match finance.
User 2 (ML eng): feature store backfills take a weekend. Wants point-in-time joins. Also mentioned dashboards vs finance mismatch.
User 3 (PM): can't find which table is the source of truth for "active customer", asked in 3 channels and got 3 answers.
User 4 (analytics eng): dbt runs take 2h, most of it in two models nobody owns. Definitions of "active" differ between teams.`,
      `two sentences, what's this blog post arguing?

Most teams adopt Kubernetes long before they need it. The cost isn't the cluster bill; it's the cognitive load of Helm charts, operators, CRDs, admission webhooks and a dozen YAML dialects that every engineer must understand to ship a one-line change. For a company with five services and twenty engineers, a PaaS or even a few VMs with systemd and a load balancer will deliver faster, fail more predictably, and free the team to work on the product. Reach for Kubernetes when the pain of not having it is concrete, measured, and recurring — not when a conference talk makes you feel behind.`,
      `shorten this ticket description so it fits on the sprint board card

As part of the auth migration we need to remove all remaining callers of the legacy /v1/session endpoint. According to the access logs from the last 30 days there are still 4 services calling it (reporting-api, legacy-admin, notifier, and an unknown client with UA "python-requests/2.22"). Each caller should be moved to /v2/token, and once traffic is zero for 7 consecutive days the endpoint can be deleted along with the session table.`,
      `Can you summarize what the twelve-factor app methodology says, one line per factor?`,
      `main points of Conway's law and the original Conway paper, briefly`,
    ],

    general: [
      `best mechanical keyboard under 150?`,
      `m3 macbook air or thinkpad x1 carbon for dev work`,
      `how do I stop procrastinating lol`,
      `good podcast for a 5 hour drive`,
      `what year did the berlin wall fall`,
      `are standing desks worth it`,
      `how do I make instant ramen less sad`,
      `how's your day going`,
      `is coffee after 3pm actually bad for sleep`,
      `who invented the transistor`,
      `How does HTTPS keep things private, conceptually? Not the handshake bytes, just the idea.`,
      `I've been a backend dev for 6 years and I'm thinking about moving into management. How do I know if it's right for me?`,
      `What's the difference between a VPN and a proxy, in plain terms?`,
      `Recommend some books on the history of computing that aren't too dry.`,
      `My wrists hurt after long coding sessions. Anything I should try before seeing a doctor?`,
      `how do I politely tell a recruiter to stop messaging me on linkedin`,
      `What's a good way to run a 1:1 with a new report who barely talks?`,
      `Why did the Roman Empire split into east and west?`,
      `Planning an offsite for 12 people in October, activity ideas that aren't escape rooms?`,
      `Is it worth learning Rust for my career in 2025, or should I go deeper on Go?`,
      `Two offers and I can't decide. A: series B startup, 165k base, 0.1% equity, fully remote, Elixir stack. B: big bank, 185k base + 15% bonus, hybrid 3 days a week, Java monolith but joining a new platform team. I'm 29, no kids, I want to grow toward staff engineer in the next few years. Which would you pick and why?`,
      `I've had a headache every afternoon for two weeks. I drink about 4 coffees a day, sleep ~6h, and stare at two monitors for 10h. No other symptoms. Is this likely just screen/caffeine stuff or should I book a doctor?`,
      `Going to Tokyo for KubeCon Japan in June, 5 days of conference then 4 free days. Never been to Japan. What should I do with the free days, and any etiquette things I should know so I don't embarrass myself?`,
      `My team keeps having the same tabs vs spaces fight in code review and it's getting personal. As their manager, how do I de-escalate without picking a side?`,
      `Loved recently: Project Hail Mary, The Phoenix Project, Piranesi, Sapiens. Couldn't finish: Atlas Shrugged, Ready Player One. What should I read next? Fiction or nonfiction both fine.`,
      `fridge has: half a cabbage, 4 eggs, leftover rice, soy sauce, one sad carrot, gochujang. 20 minutes, one pan. what can I make?`,
      `Explain how DNS works at a conceptual level — what happens between typing example.com and the browser knowing where to go. My non-technical partner asked and I want a good analogy, not packet details.`,
      `deciding between these, mostly docker + occasionally a local LLM, battery matters a lot:

- MacBook Pro 14 M3 Pro, 18GB, 512GB — $2,199
- Framework 16, Ryzen 7 7840HS, 32GB, 1TB — $1,899
- Dell XPS 15, i7-13700H, 32GB, RTX 4050 — $2,049`,
      `How do I explain my job to my parents? I'm a data engineer: I build pipelines that move data from our apps into a warehouse so analysts can build dashboards. They think I "fix computers" and tell the relatives that.`,
      `farewell gift etiquette for a coworker — how much should each person chip in, team of 8, and is a group card enough?`,
    ],
  },
};
