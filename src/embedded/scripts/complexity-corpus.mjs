// The labelled simple/complex corpus behind EmbeddedVectorDecisionModel's complexity feature,
// written for this project (no external data). "simple": what a small cheap model answers well —
// greetings, thanks, one fact, one definition, one conversion, one short edit. "complex": what
// needs a strong model — several steps, analysis, planning, long or structured writing, code that
// does something non-trivial, proofs. Hand-written sentences, plus frames × subjects (each frame
// gets a subject chosen by a hash, so the output is reproducible). None of these texts is in
// bench/data (src/embedded/scripts/build-complexity-prior.mjs checks).

const greetings = [
  'hello',
  'hey there',
  'good afternoon',
  'good evening, how are you',
  'yo',
  'morning!',
  'thank you so much',
  'cheers',
  'great, thanks',
  'ok',
  'okay got it',
  'cool',
  'bye',
  'see you later',
  'have a nice day',
  'sounds good',
  'nice one',
  'you are funny',
  'how is your day going?',
  'what is your name?',
  'are you a robot?',
  'lol',
  'sorry, my mistake',
  'never mind',
  'awesome, thank you!',
];

const simpleHand = [
  'what is the capital of Kenya',
  'how many days are in a leap year',
  'who wrote The Odyssey?',
  'what is 9 squared',
  'how many centimetres in an inch',
  'spell rhythm',
  'what year did World War II end',
  'what is the tallest animal',
  'is Spanish hard to learn?',
  'which ocean is the deepest?',
  'what is the main ingredient of hummus',
  'how hot is the sun?',
  'who is the author of Dracula',
  'translate cat into French',
  'what is 100 divided by 4',
  'what does LOL mean',
  'what is the past tense of swim',
  'which bird cannot fly?',
  'how many bones in the human body',
  'what is the smallest country in the world',
  'name a primary colour',
  'when is Halloween',
  'what is the capital of Norway?',
  'what does a thermometer measure',
  'how many sides does a pentagon have',
  'who was Albert Einstein?',
  'how do I say hello in Italian',
  'what is a noun',
  'is it safe to eat raw cookie dough?',
  'what is the time difference between London and New York',
  'how many hours in a week',
  'what is the largest desert',
  'what is the symbol for iron',
  'is 17 a prime number',
  'what is the longest river in Europe?',
  'who sang Yesterday',
  'what does ASAP mean',
  'what is an antonym of ancient',
  'fix the typo: recieve',
  'capitalise this: paris is lovely',
  'give me a synonym for big',
  'what is a byte',
  'what does ls do in linux',
  'what is the shortcut to copy on a Mac',
  'what is 3 plus 4',
  'how many minutes in two hours',
  'what is the opposite of north',
  'who is the Greek god of the sea',
  'which month has 28 days',
];

// Simple requests phrased as instructions, so that the imperative form alone does not read as
// complex either.
const simpleCommands = [
  'Tell me the capital of Peru.',
  'Give me a synonym for happy.',
  'Convert 5 kilometres to miles.',
  'Spell necessary for me.',
  'Name three primary colours.',
  'Say good morning in Italian.',
  'List the days of the week.',
  'Tell me a fun fact about cats.',
  'Define photosynthesis in one sentence.',
  'Write the number 42 in Roman numerals.',
  'Give me the plural of mouse.',
  'Remind me what year the Titanic sank.',
  'Fix the typo in: teh cat sat.',
  'Make this sentence shorter: we will be having a meeting tomorrow.',
  'Tell me what time it is in London when it is noon in New York.',
  'Give me one word that rhymes with light.',
  'Write a one-line birthday wish for my mum.',
  'Capitalise this: paris is lovely.',
  'Tell me how many ounces are in a pound.',
  'Name the largest planet.',
];

// One-fact questions in the vocabulary of hard routes (maths, code, science): with the complex
// questions above, neither the question form nor the topic alone says how hard a request is.
const simpleTechnical = [
  'what does API stand for?',
  'what is a prime number?',
  'who proved Fermat’s last theorem?',
  'what is the derivative of x squared?',
  'what does HTTP stand for?',
  'is Python compiled or interpreted?',
  'what is a neutron star?',
  'how many bits are in a byte?',
  'what is the square root of 144?',
  'what language is Linux written in?',
  'what is an algorithm?',
  'who invented the World Wide Web?',
  'what does RAM stand for?',
  'is zero an even number?',
  'what is the value of pi to two decimals?',
  'what is a black hole?',
  'what port does HTTPS use?',
  'what is the chemical symbol for gold?',
  'what is a function in maths?',
  'what does SQL stand for?',
  'how many sides does a hexagon have?',
  'what is machine learning, in one sentence?',
  'who developed the theory of relativity?',
  'what is binary?',
  'what is 15 percent of 200?',
  'what does a compiler do, briefly?',
  'what is the Pythagorean theorem?',
  'is a virus alive?',
];

const simpleFrames = [
  (s) => `what is ${s}`,
  (s) => `what is ${s}?`,
  (s) => `who discovered ${s}?`,
  (s) => `where is ${s}?`,
  (s) => `what colour is ${s}`,
  (s) => `how big is ${s}?`,
  (s) => `one word for ${s}?`,
  (s) => `is ${s} dangerous?`,
  (s) => `when was ${s} invented`,
  (s) => `quick fact about ${s}`,
  (s) => `how do you pronounce ${s}`,
  (s) => `what does ${s} mean`,
];
const simpleSubjects = [
  'the Eiffel Tower',
  'a koala',
  'radium',
  'a kite',
  'the Sahara',
  'a pangolin',
  'the compass',
  'quinoa',
  'a meteor',
  'Mount Fuji',
  'a saxophone',
  'the Nile',
  'a hedgehog',
  'a barometer',
  'neon',
  'the Great Wall',
  'a lynx',
  'a harp',
  'the Amazon',
  'a cactus',
  'an abacus',
  'the Colosseum',
  'a jellyfish',
  'a monsoon',
  'saffron',
  'the Andes',
  'a walrus',
  'a sundial',
  'a tsunami',
  'a flamingo',
  'the yen',
  'a geyser',
  'a zeppelin',
  'a tulip',
  'a fjord',
  'the ukulele',
  'a chameleon',
  'the Milky Way',
  'a lighthouse',
  'cinnamon',
];

const complexHand = [
  'Design the architecture of an event-sourced order system and explain how you would handle replays, snapshots and schema evolution.',
  'Prove that the harmonic series diverges, then explain why the sum of 1/n² converges.',
  'Write a 1,500-word feature article about the history of coffee trade, with sources and a narrative structure.',
  'Analyse the pros and cons of nuclear power for a country that wants to reach net zero by 2040, and recommend a policy.',
  'Build a full-stack todo app with authentication: give the database schema, the API routes and the React components.',
  'Compare five project-management methodologies and map each one to the kind of team and project it suits.',
  'Work through this probability puzzle step by step: three prisoners, one pardon, the guard reveals a name; what are the odds?',
  'Here is my Python class that handles payments; find the race conditions and rewrite it to be thread-safe with tests.',
  'Plan a product roadmap for the next 18 months for a B2B analytics startup, with priorities, risks and hiring needs.',
  'Explain the mathematics of RSA in detail, including key generation, why decryption works, and how to choose parameters.',
  'Write a detailed lesson unit on the water cycle for twelve-year-olds with experiments, homework and assessment rubrics.',
  'Evaluate the long-term effects of the printing press on European politics, religion and science, and argue which mattered most.',
  'Optimise a slow data pipeline that processes 2 TB a day in Spark; propose partitioning, caching and cost changes, with reasoning.',
  'Derive the closed form of the Fibonacci sequence using generating functions and prove it by induction.',
  'Create a negotiation strategy for renewing a supplier contract where we have little leverage, with scenarios and fallback positions.',
  'Write a screenplay outline for a feature film: three acts, character arcs, set pieces and the theme in each act.',
  'Diagnose why this neural network does not learn: loss stays at 2.3 on MNIST with lr 0.1, batch 512, ReLU and no normalisation.',
  'Develop a marketing plan for launching an organic skincare brand in three countries, with budget split and KPIs.',
  'Explain general relativity to a physics undergraduate, deriving time dilation near a massive body.',
  'Refactor a legacy PHP monolith into services incrementally: sequence of steps, testing strategy and rollback plan.',
  'Compare the economic models of Norway and Singapore and assess what a developing country could borrow from each.',
  'Implement a trie with insert, delete and prefix search in C++, analyse memory use and suggest a compressed variant.',
  'Given monthly revenue for three years, build a forecasting approach with seasonality and explain how to validate it.',
  'Write a grant proposal for a community garden project: aims, methods, timeline, budget and expected impact.',
  'Reason through whether a self-driving car should prioritise passengers or pedestrians, covering law, ethics and engineering.',
  'Set up observability for a fleet of microservices: metrics, tracing and logs, alert rules, and an on-call runbook.',
  'Design a fair algorithm to split rent between roommates with rooms of different sizes, and prove it is envy-free.',
  'Summarise and critique the main arguments of Thomas Piketty’s Capital in the Twenty-First Century.',
  'Write a concurrent web crawler in Go with rate limiting, politeness rules, deduplication and graceful shutdown.',
  'Plan a wedding for 150 guests on a 20,000 budget: venue, catering, schedule, vendors and a contingency plan.',
];

// Complex requests asked the way people ask them, as questions and polite requests ("can you
// prove…?", "how would you design…?"): with imperatives only, the question form itself read as
// simple, and "can you prove that √2 is irrational, step by step?" went to the small model.
const complexQuestions = [
  'Can you prove that the square root of 2 is irrational, step by step?',
  'Could you walk me through designing a distributed rate limiter that works across several data centres?',
  'How would you architect a payments platform that must never lose or double-charge a transaction?',
  'Can you explain why quicksort is O(n log n) on average but O(n²) in the worst case, with a proof?',
  'What is the best way to migrate a 5 TB Postgres database to a new cluster with no downtime, and what could go wrong?',
  'Could you help me plan a three-week trip through Japan on a fixed budget, day by day, with trains and costs?',
  'Why does my multithreaded Java service deadlock under load, and how should I restructure the locking?',
  'How do I build a recommendation engine for a small online shop, from data collection to evaluation?',
  'Can you compare Kafka, RabbitMQ and NATS for an event-driven system and tell me which to pick for my case?',
  'Would you analyse the causes of the 2008 financial crisis and how each one could have been prevented?',
  'How can I prove that every planar graph is five-colourable?',
  'Can you write a parser for arithmetic expressions with precedence and parentheses, and explain how it works?',
  'What would a fair tax reform look like for a country with high inequality, and what are the trade-offs?',
  'Could you derive the Black-Scholes equation and explain each assumption behind it?',
  'How should we redesign our onboarding flow to cut churn in the first month, and how would we measure it?',
  'Can you find the bug in this recursive descent parser and explain why it loops forever on nested input?',
  'What are the strongest arguments for and against nuclear energy, and which side do you find more convincing and why?',
  'How would you scale a chat app from ten thousand to ten million users, step by step?',
  'Could you explain how transformers work, from attention to training, with the maths?',
  'Is it possible to solve the travelling salesman problem exactly for 40 cities, and how would you do it?',
  'Can you help me write a business plan for a bakery, with a budget, pricing and a three-year forecast?',
  'How do I design a database schema for a multi-tenant SaaS app with per-tenant customisation?',
  'Why did the Roman Republic fall, and which causes mattered most according to historians?',
  'Can you optimise this SQL query that joins five tables and takes 40 seconds, and explain each change?',
  'What is the expected number of rolls to see all six faces of a die, and can you prove it?',
  'Could you draft a detailed incident post-mortem template and explain what each section is for?',
  'How would you evaluate whether a machine learning model is biased against a group, and fix it?',
  'Can you design a curriculum to teach a complete beginner web development in six months?',
  'what would be a good strategy to pay off three loans with different rates while still saving?',
  'how do i set up CI/CD for a monorepo with five services so only changed ones deploy?',
  'can you explain the halting problem and prove it is undecidable?',
  'could you review my essay structure and suggest how to reorganise the argument across sections?',
  'how would you go about reverse-engineering an undocumented binary file format?',
  'can you work out a fair way to split a shared inheritance of a house, cash and shares between four siblings?',
  'what steps should a small company take to become GDPR compliant, in order of priority?',
  'Why is my React app re-rendering everything on each keystroke, and how do I restructure state to fix it?',
  'Can you solve this system of differential equations and interpret the solution physically?',
  'How do vaccines get from discovery to approval, and where could the process be made faster safely?',
  'Could you plan a training schedule for my first marathon in 16 weeks, with weekly mileage and recovery?',
  'What is a good architecture for offline-first sync in a mobile app, and how do you resolve conflicts?',
];

const complexFrames = [
  (t) =>
    `Give me an in-depth analysis of ${t}, weigh the main arguments on each side, and reach a reasoned conclusion.`,
  (t) =>
    `Design a complete system for ${t}: requirements, architecture, data model, failure modes and a rollout plan.`,
  (t) =>
    `Write a long, well-structured essay on ${t} with an introduction, several sections with evidence, and a conclusion.`,
  (t) =>
    `Break down ${t} into steps, estimate the cost and time of each, identify the risks, and propose how to reduce them.`,
  (t) =>
    `Explain the theory behind ${t} rigorously, derive the main equations, and apply them to a worked example.`,
  (t) =>
    `Compare at least four strategies for ${t}, build a decision matrix with weighted criteria, and justify your recommendation.`,
  (t) =>
    `Write production-quality code for ${t}, with error handling, tests and documentation, and explain the design choices.`,
];
const complexTopics = [
  'a city-wide bike-sharing scheme',
  'inventory management for a chain of pharmacies',
  'reducing hospital waiting times',
  'a peer-to-peer file sync tool',
  'the collapse of the Bronze Age civilisations',
  'heat pumps in cold climates',
  'a fraud detection service for card payments',
  'universal basic income',
  'the mechanics of black hole evaporation',
  'migrating a bank to the cloud',
  'teaching programming to adults',
  'scheduling exams at a university',
  'the economics of streaming music',
  'a multiplayer game server',
  'protecting coral reefs',
  'a search engine for legal documents',
  'the spread of misinformation online',
  'a warehouse robot fleet',
  'pricing a new subscription product',
  'the ethics of gene editing',
  'a compiler for a small language',
  'the future of public libraries',
  'load balancing across data centres',
  'a national vaccination campaign',
  'monetary policy during a recession',
  'a home solar and battery installation',
  'real-time translation of video calls',
  'the rise and fall of the Roman Republic',
  'a recommendation system for recipes',
  'water rights in a drought-prone region',
];

/** FNV-1a: a reproducible choice of frame per subject. */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function combine(frames, subjects, rounds) {
  const out = [];
  for (let round = 0; round < rounds; round++) {
    for (const subject of subjects)
      out.push(frames[hash(`${round}:${subject}`) % frames.length](subject));
  }
  return out;
}

export function complexityCorpus() {
  const simple = [
    ...greetings,
    ...simpleHand,
    ...simpleCommands,
    ...simpleTechnical,
    ...combine(simpleFrames, simpleSubjects, 3),
  ];
  const complex = [
    ...complexHand,
    ...complexQuestions,
    ...combine(complexFrames, complexTopics, 4),
  ];
  return { simple: [...new Set(simple)], complex: [...new Set(complex)] };
}
