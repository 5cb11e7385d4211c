// The seed's headline use: send easy requests to a cheap model and hard ones to a strong one.
// Hand-written messages first, then combinations of hand-written parts (seeded, reproducible) to
// reach a few hundred: the parts lists below are written for this set only.
import { pick } from './seeded.mjs';

const simpleHand = [
  'hi',
  'hey, good morning',
  'thanks a lot!',
  'ok bye',
  'what is the capital of Peru?',
  'who wrote Pride and Prejudice',
  'how many ounces in a pound?',
  'what year did the Titanic sink?',
  'what does NASA stand for',
  'is a tomato a fruit?',
  'how do you spell necessary',
  'what time zone is Tokyo in?',
  'convert 10 miles to km',
  "what's 12 times 8",
  'define photosynthesis in one sentence',
  'how many legs does a spider have',
  'what is the boiling point of water in Fahrenheit?',
  'who is the current UN secretary general?',
  'synonym for happy',
  'what is the plural of cactus?',
  'what colour do you get mixing blue and yellow',
  'how old is the universe roughly?',
  'tell me a fun fact',
  'what is the square root of 81',
  'which planet is closest to the sun?',
  "what's the opposite of generous",
  'how do I say yes in Spanish',
  'what day is Christmas on',
  'how many players in a football team?',
  'who discovered penicillin?',
  'is it going to be hot in Cairo in July?',
  'what does HTML stand for?',
  'what is 15% of 80',
  'how are you?',
  'nice, thank you',
  'what is the largest ocean',
  'when was Shakespeare born',
  'give me a word that rhymes with orange',
  'what does git status do?',
  'how do I print hello world in Python?',
  'what is the chemical symbol for gold',
  'how many continents are there',
  'recommend a book for the beach',
  'what is a haiku?',
  'how long is a marathon?',
  'which is bigger, a kilobyte or a megabyte?',
  'who painted The Starry Night',
  'what is the currency of Japan?',
  'can you hear me?',
  'good night!',
  'what is the freezing point of water',
  'round 3.14159 to two decimals',
  'what does RSVP mean',
  'is Pluto a planet?',
  'what is the speed of light?',
  'how do I make text bold in markdown',
  'who was the first person on the moon?',
  'what is the population of Canada, roughly?',
  'what is an adjective?',
  'which country has the most people?',
];

const complexHand = [
  'Design a database schema for a multi-tenant SaaS app with billing, roles and audit logs, and explain the indexing strategy.',
  'Prove that every bounded monotone sequence of real numbers converges.',
  'Write a 2,000-word essay comparing the causes of the First and Second World Wars.',
  'My React app re-renders the whole list on every keystroke; here is the component:\nfunction List({ items }) { const [q, setQ] = useState(""); return items.filter(i => i.includes(q)).map(i => <Row key={Math.random()} item={i} />); }\nFind every performance problem and rewrite it.',
  'Create a 12-week marathon training plan for a beginner who can run 5 km, with weekly mileage, rest days and tapering.',
  'Analyse the trade-offs between microservices and a modular monolith for a team of six engineers, then recommend one.',
  'Implement Dijkstra’s algorithm in Rust with a binary heap, handle disconnected graphs, and explain its complexity.',
  'Given the following quarterly sales figures, forecast next year and explain which model you chose and why: Q1 120, Q2 135, Q3 150, Q4 190.',
  'Explain step by step how public-key cryptography lets two strangers agree on a secret over an open channel, then discuss attacks on it.',
  'Draft a business plan for a mobile dog-grooming service: market, pricing, costs, marketing and a three-year cash-flow projection.',
  'Solve this system and justify each step: x + y + z = 6, 2x - y + 3z = 14, -x + 4y - z = -2.',
  'Refactor this 300-line Python script into testable modules and add type hints and pytest tests.',
  'Compare utilitarianism and Kantian ethics on the trolley problem and argue which gives the better answer.',
  'Write a detailed migration plan to move our PostgreSQL database to a new cluster with zero downtime.',
  'Why does this concurrent Go code deadlock sometimes? func main() { ch := make(chan int); var wg sync.WaitGroup; wg.Add(2); go func(){ ch <- 1; wg.Done() }(); wg.Wait(); fmt.Println(<-ch) }',
  'Plan a three-week itinerary through Japan for a family with two kids, balancing cities and nature, with a budget breakdown.',
  'Derive the formula for the variance of a binomial distribution from first principles.',
  'Critically evaluate the evidence for and against a four-day work week, citing the main studies.',
  'Build a simple interpreter for arithmetic expressions in TypeScript with a tokenizer, a parser and an evaluator.',
  'Explain how transformers work, from tokenization and embeddings through attention to training, for a software engineer.',
  'Write a short story of about 3,000 words with three viewpoints that converge at the end.',
  'Our churn went from 3 % to 7 % after a price change; propose an analysis plan and the experiments to find out why.',
  'Prove by induction that 1 + 2 + … + n = n(n+1)/2 and then generalise to the sum of squares.',
  'Design a rate limiter that works across many servers, compare token bucket and sliding window, and give pseudocode.',
  'Review this contract clause by clause and flag every risk for the buyer.',
  'What would happen to global trade if the Suez Canal closed for a year? Reason through shipping, prices and politics.',
  'Optimise this SQL query that joins five tables and takes 40 seconds, and explain the execution plan you expect.',
  'Teach me the basics of Bayesian inference with a worked example, then show how it differs from frequentist testing.',
  'Write a cover letter, a CV summary and a LinkedIn headline for a nurse moving into UX research, and explain the choices.',
  'Estimate how many piano tuners work in Chicago, showing every assumption.',
  'Set up CI/CD for a monorepo with three services: caching, parallel jobs, preview environments and rollbacks.',
  'Explain the causes of the 2008 financial crisis and whether the regulations since would prevent a repeat.',
  'Find the eigenvalues and eigenvectors of [[4, 1], [2, 3]] and diagonalise the matrix.',
  'Write a persuasive speech for a city council meeting about building protected bike lanes, with counter-arguments addressed.',
  'Debug why our Kubernetes pods are OOM-killed only under load, and describe how to profile memory in production.',
  'Compare the time and space complexity of merge sort, quicksort and heapsort, and say when each is the right choice.',
  'Outline a research methodology for studying the effect of remote work on team creativity.',
  'Translate this legal paragraph into French and explain which terms have no exact equivalent.',
  'Create a lesson plan for teaching fractions to ten-year-olds over four sessions, with activities and assessments.',
  'I have 50,000 euros, a mortgage at 4 % and no pension; work out how to split between overpaying and investing.',
  'Write a parser for ISO 8601 durations in Java with edge cases and unit tests.',
  'Analyse the symbolism in Moby-Dick and how it relates to nineteenth-century American politics.',
  'Derive the backpropagation equations for a two-layer neural network with softmax output.',
  'Plan the launch of a mobile app: timeline, budget, channels, metrics, and what to do if adoption is slow.',
  'Explain the CAP theorem with examples from real databases and the choices each one makes.',
  'Work out the optimal strategy for the Monty Hall problem with four doors and two reveals, with a proof.',
  'Write a technical design document for adding offline sync to our note-taking app.',
  'Evaluate three architectures for real-time chat with a million users and estimate their costs.',
  'Summarise the arguments of the three main schools of macroeconomics and test them against the 1970s stagflation.',
  'Given this stack trace and the code below, find the root cause and propose a fix with a regression test.\nTraceback (most recent call last): File "app.py", line 42, in handler: KeyError: "user_id"',
  'Design an experiment to test whether a new onboarding flow improves retention, including sample size.',
  'Write a multi-chapter outline for a fantasy novel with a magic system, politics and a three-act structure.',
  'Calculate the monthly payment of a 300,000 loan over 25 years at 3.9 % and show the amortisation for the first year.',
  'Compare the nutrition, cost and environmental impact of beef, chicken, lentils and tofu, and build a weekly meal plan.',
  'Explain how a compiler turns source code into machine code, stage by stage, with an example.',
  'Assess the geopolitical consequences of Arctic ice melt for shipping routes and military strategy.',
  'Propose a step-by-step plan to reduce our AWS bill by 30 % without hurting latency.',
  'Formalise the rules of tic-tac-toe and prove that perfect play always ends in a draw.',
  'Argue both sides of whether social media should verify the age of its users, and conclude.',
  'Implement a red-black tree insertion in C and explain every rotation case.',
];

// Combinations: each simple frame takes one short subject; each complex frame takes a topic and
// asks for reasoning, structure or length.
const simpleFrames = [
  (s) => `what is ${s}?`,
  (s) => `quick question: who invented ${s}`,
  (s) => `define ${s}`,
  (s) => `is ${s} expensive?`,
  (s) => `${s}, yes or no?`,
  (s) => `how do you spell ${s}`,
];
const simpleSubjects = [
  'the telescope',
  'a croissant',
  'jazz',
  'a volcano',
  'the bicycle',
  'origami',
  'a comet',
  'the euro',
  'a sonnet',
  'gravity',
  'the piano',
  'a glacier',
  'basketball',
  'a pixel',
  'the printing press',
  'a llama',
  'paprika',
  'a hurricane',
  'velcro',
  'the zipper',
];
const complexFrames = [
  (t) =>
    `Write a thorough report on ${t}: its history, how it works, its economic impact, and open problems, with sections and a conclusion.`,
  (t) =>
    `Compare three competing approaches to ${t}, analyse their strengths and weaknesses in detail, and recommend one with a justification.`,
  (t) =>
    `Create a step-by-step project plan for ${t}, including milestones, risks, a budget estimate and how to measure success.`,
  (t) =>
    `Explain ${t} to a graduate student, derive the key results, and work through two non-trivial examples.`,
  (t) =>
    `Critically evaluate the evidence about ${t}, point out the weaknesses of the main studies, and propose a better study design.`,
];
const complexTopics = [
  'carbon capture',
  'high-speed rail in a mid-sized country',
  'distributed consensus',
  'urban beekeeping',
  'vaccine distribution in remote regions',
  'a recommendation engine for a bookshop',
  'desalination',
  'the decline of bee populations',
  'quantum error correction',
  'renovating a Victorian house',
  'a school timetable solver',
  'sleep and memory consolidation',
  'open-source funding',
  'river flood forecasting',
  'container orchestration',
  'micro-loans in rural economies',
  'tidal energy',
  'supply-chain resilience after a pandemic',
  'compressing genomic data',
  'reviving a dying language',
];

export function simpleComplexMessages() {
  const simple = [...simpleHand];
  const complex = [...complexHand];
  for (const s of simpleSubjects) simple.push(pick(simpleFrames, `s:${s}`)(s));
  for (const s of simpleSubjects) simple.push(pick(simpleFrames, `s2:${s}`)(s));
  for (const t of complexTopics) complex.push(pick(complexFrames, `c:${t}`)(t));
  for (const t of complexTopics) complex.push(pick(complexFrames, `c2:${t}`)(t));
  return { simple: [...new Set(simple)], complex: [...new Set(complex)] };
}

/** This project's own wording of the split. */
export const simpleComplex = {
  name: 'simple-complex',
  about: 'cheap vs strong model, 2 routes',
  routes: [
    {
      name: 'simple',
      description:
        'Simple requests: greetings, small talk, quick facts, short definitions and one-step questions.',
      examples: [
        'hello!',
        'what is the capital of Canada',
        'how many grams in a kilo',
        'thank you',
        'what does CPU stand for',
      ],
    },
    {
      name: 'complex',
      description:
        'Complex requests: multi-step reasoning, analysis, planning, long-form writing, non-trivial code and proofs.',
      examples: [
        'prove that the square root of 3 is irrational',
        'design a caching layer for a web service and explain the trade-offs',
        'write a 1500-word essay on the causes of the French Revolution',
        'compare three ways to fund a startup and recommend one for my situation',
        'implement a thread-safe LRU cache in Java with tests',
      ],
    },
  ],
};

/** The README's example configuration (fewer examples, terser descriptions), same messages. */
export const simpleComplexReadme = {
  name: 'simple-complex-readme',
  about: "the README's simple/complex routes (3 + 2 examples)",
  routes: [
    {
      name: 'simple',
      description: 'small talk, greetings and short factual questions',
      examples: ['hi there', 'what is the capital of France', 'thanks, bye'],
    },
    {
      name: 'complex',
      description: 'mathematical proofs, algorithms and multi-step reasoning',
      examples: ['prove that there are infinitely many primes', 'design a sorting algorithm'],
    },
  ],
};
