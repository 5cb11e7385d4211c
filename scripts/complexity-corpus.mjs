// The labelled simple/complex corpus behind EmbeddedVectorDecisionModel's complexity feature,
// written for this project (no external data). "simple": what a small cheap model answers well —
// greetings, thanks, one fact, one definition, one conversion, one short edit. "complex": what
// needs a strong model — several steps, analysis, planning, long or structured writing, code that
// does something non-trivial, proofs. Hand-written sentences, plus frames × subjects (each frame
// gets a subject chosen by a hash, so the output is reproducible). None of these texts is in
// bench/data (scripts/build-complexity-prior.mjs checks).

const greetings = [
  'hello',
  'hi!',
  'hey there',
  'good afternoon',
  'good evening, how are you',
  'yo',
  'morning!',
  'thanks',
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
  'perfect',
  'awesome, thank you!',
];

const simpleHand = [
  'what is the capital of Kenya',
  'how many days are in a leap year',
  'who wrote The Odyssey?',
  'what is 9 squared',
  'how many centimetres in an inch',
  'what does DNA stand for',
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
  const simple = [...greetings, ...simpleHand, ...combine(simpleFrames, simpleSubjects, 3)];
  const complex = [...complexHand, ...combine(complexFrames, complexTopics, 4)];
  return { simple: [...new Set(simple)], complex: [...new Set(complex)] };
}
