/**
 * Word lists behind the cache verifier. Each list names words whose swap changes the answer while
 * barely moving a sentence embedding ("turn on" / "turn off", "C" / "C++", "JSON" / "YAML").
 */

/** Every surface form a word takes in a prompt, so one entry covers "encrypt", "encrypts", "encrypted", "encryption". */
export function inflections(base: string): string[] {
  const stem = base.endsWith("e") ? base.slice(0, -1) : base;
  const last = base.at(-1) ?? "";
  const doubled = /[aeiou][bdgmnpt]$/.test(base) && base.length <= 4 ? base + last : base;
  return [
    base,
    `${base}s`,
    `${base}es`,
    `${base}d`,
    `${base}ed`,
    `${stem}ing`,
    `${stem}ed`,
    `${stem}ion`,
    `${stem}ions`,
    `${base}ion`,
    `${doubled}ed`,
    `${doubled}ing`,
    `${base}er`,
    `${base}ers`,
  ];
}

/**
 * Antonym pairs. A prompt gets a pole id (pair name plus side "a" or "b") for each word it contains; two prompts that
 * both speak of a pair but from different poles ask for opposite things.
 */
const DIRECTION_PAIRS: readonly [string[], string[]][] = [
  [
    ["increase", "raise", "grow", "expand", "enlarge", "boost", "maximize", "maximise", "max", "maximum", "highest", "largest", "biggest", "greatest", "most", "longest", "tallest", "more", "greater", "larger", "bigger", "higher", "longer", "taller", "heavier", "heaviest", "upper", "above", "over"],
    ["decrease", "reduce", "lower", "shrink", "diminish", "minimize", "minimise", "min", "minimum", "lowest", "smallest", "least", "shortest", "fewest", "less", "fewer", "smaller", "shorter", "lighter", "lightest", "below", "under"],
  ],
  [["best", "better", "strongest", "stronger"], ["worst", "worse", "weakest", "weaker"]],
  [["fastest", "faster", "quickest", "quicker"], ["slowest", "slower"]],
  [["oldest", "older", "elder"], ["youngest", "younger", "newest", "newer"]],
  [["cheapest", "cheaper"], ["expensive", "pricier", "costlier"]],
  [["before", "earlier", "prior", "previous", "past", "preceding"], ["after", "later", "next", "future", "subsequent", "following"]],
  [["first", "beginning", "begin", "start", "initial", "leading"], ["last", "end", "ending", "final", "finish", "trailing"]],
  [["open", "opens", "opened", "opening"], ["close", "closes", "closed", "closing", "shut", "shuts"]],
  [["enable", "activate", "allow", "permit", "accept", "approve", "whitelist", "allowlist"], ["disable", "deactivate", "deny", "block", "forbid", "reject", "prevent", "blacklist", "blocklist"]],
  [["include", "inclusive"], ["exclude", "exclusive"]],
  [["insert", "create", "install", "attach", "mount", "append", "prepend", "add", "adds", "added", "adding"], ["delete", "destroy", "uninstall", "detach", "unmount", "remove", "drop", "drops", "dropped", "erase"]],
  [["encrypt", "encipher", "encode", "serialize", "serialise", "compress", "zip", "zips", "zipped", "pack", "packs", "packed", "marshal", "lock", "locks", "locked", "mask", "masks", "masked", "obfuscate"], ["decrypt", "decipher", "decode", "deserialize", "deserialise", "decompress", "unzip", "unpack", "unmarshal", "unlock", "unmask", "deobfuscate"]],
  [["export", "upload", "push", "pushes", "pushed", "send", "sends", "sent", "sending", "outgoing", "outbound", "egress"], ["import", "download", "pull", "pulls", "pulled", "receive", "incoming", "inbound", "ingress"]],
  [["write", "wrote", "written", "save", "saves", "saved", "saving", "store"], ["read", "reads", "reading", "load", "loads", "loaded", "loading", "fetch"]],
  [["buy", "buys", "bought", "buying", "purchase", "borrow", "win", "wins", "won", "winning", "gain", "gains", "gained", "profit", "credit"], ["sell", "sells", "sold", "selling", "lend", "lends", "lent", "lose", "loses", "lost", "losing", "loss", "losses", "debit"]],
  [["uppercase", "upward", "upwards", "top", "ceiling", "upstream", "uphill", "rise", "rises", "rose", "rising", "ascend", "ascending", "asc"], ["lowercase", "downward", "downwards", "bottom", "floor", "downstream", "downhill", "fall", "falls", "fell", "falling", "descend", "descending", "desc"]],
  [["inside", "inner", "internal", "interior", "input"], ["outside", "outer", "external", "exterior", "output"]],
  [["left", "west", "western", "westward"], ["right", "east", "eastern", "eastward"]],
  [["north", "northern", "northward"], ["south", "southern", "southward"]],
  [["forward", "forwards", "clockwise"], ["backward", "backwards", "counterclockwise", "anticlockwise"]],
  [["horizontal", "horizontally", "row", "rows"], ["vertical", "vertically", "column", "columns"]],
  [["true", "positive", "yes", "pro", "pros", "advantage", "advantages", "benefit", "benefits", "success", "valid"], ["false", "negative", "cons", "con", "disadvantage", "disadvantages", "drawback", "drawbacks", "failure", "invalid"]],
  [["hot", "hotter", "warm", "warmer", "heat", "heated", "heating", "summer"], ["cold", "colder", "cool", "cooler", "cooled", "cooling", "chill", "winter"]],
  [["day", "days", "daytime", "morning"], ["night", "nighttime", "evening"]],
  [["light"], ["dark", "darker"]],
  [["wet", "wetter"], ["dry", "drier", "dried"]],
  [["male", "man", "men", "boy", "boys", "he", "him", "his", "father", "husband", "son", "brother"], ["female", "woman", "women", "girl", "girls", "she", "her", "hers", "mother", "wife", "daughter", "sister"]],
  [["short", "shorten", "brief", "briefly", "concise", "concisely", "summarize", "summarise", "simple", "simplify"], ["long", "lengthen", "detailed", "verbose", "elaborate", "complex", "thorough", "thoroughly", "comprehensive"]],
  [["synchronous", "sync", "blocking", "sequential", "serial"], ["asynchronous", "async", "nonblocking", "parallel", "concurrent"]],
  [["static"], ["dynamic"]],
  [["public"], ["private"]],
  [["global"], ["local"]],
  [["formal", "professional", "polite"], ["informal", "casual", "rude", "slang"]],
  [["add", "plus"], ["subtract", "minus"]],
];

/** Particles that are directions only right after a phrasal verb ("turn on", "log out", "scale up"), not in "on Monday". */
const OPPOSITE_PARTICLE: Record<string, string> = { on: "off", off: "on", in: "out", out: "in", up: "down", down: "up" };
export const PHRASAL_VERBS: ReadonlySet<string> = new Set(
  ["turn", "switch", "power", "log", "sign", "toggle", "flip", "shut", "zoom", "scale", "scroll", "round", "count", "opt", "check", "plug", "move", "step", "speed", "slow", "back", "level", "ramp", "dial", "tone", "print", "phase", "clock", "boot", "spin", "set", "swipe"].flatMap(inflections),
);

export function oppositeParticle(word: string): string | undefined {
  return OPPOSITE_PARTICLE[word];
}

function buildPoles(): Map<string, string> {
  const poles = new Map<string, string>();
  for (const [a, b] of DIRECTION_PAIRS) {
    const pair = `${a[0]}/${b[0]}`;
    for (const [side, words] of [["a", a], ["b", b]] as const) {
      // Short words are listed with their forms: inflecting them ("her" -> "herd") would invent words.
      for (const w of words) for (const form of w.length >= 5 ? inflections(w) : [w]) if (!poles.has(form)) poles.set(form, `${pair}${side}`);
    }
  }
  return poles;
}
const POLES = buildPoles();

/** The pole id ("increase/decreasea", "increase/decreaseb") of a direction word, or undefined. */
export function directionPole(word: string): string | undefined {
  return POLES.get(word);
}

/**
 * Words that reverse or restrict a statement. `n't` and `cannot` are expanded to `not` before
 * tokenising, so they are counted here too.
 */
export const NEGATIONS: ReadonlySet<string> = new Set([
  "not", "no", "never", "none", "nobody", "nothing", "nowhere", "neither", "nor", "without", "except", "excluding", "unless", "non", "lack", "lacking", "absent", "avoid", "avoiding", "instead",
]);

/** Prefixes and suffixes that make an antonym of a word: safe/unsafe, legal/illegal, useful/useless. */
export const NEGATING_PREFIXES: readonly string[] = ["un", "in", "im", "il", "ir", "dis", "non", "anti", "a", "de", "mis"];

export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
  dozen: 12, half: 0.5, quarter: 0.25, twice: 2, double: 2, triple: 3, thrice: 3, quadruple: 4,
};
export const NUMBER_SCALES: Readonly<Record<string, number>> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
export const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12, twentieth: 20, hundredth: 100,
};

/** Arithmetic and comparison operators by their symbol and their words, each mapped to one canonical operator. */
export const OPERATOR_SYMBOLS: Readonly<Record<string, string>> = {
  "+": "+", "-": "-", "−": "-", "*": "*", "×": "*", "·": "*", "/": "/", "÷": "/", "^": "^", "**": "^", "%": "%", "//": "//",
  "=": "=", "==": "==", "===": "==", "!=": "!=", "!==": "!=", "≠": "!=", "<": "<", ">": ">", "<=": "<=", ">=": ">=", "≤": "<=", "≥": ">=",
  "&&": "and", "||": "or", "&": "&", "|": "|", "~": "~", "<<": "<<", ">>": ">>", "√": "sqrt",
};
export const OPERATOR_WORDS: Readonly<Record<string, string>> = {
  plus: "+", added: "+", sum: "+", minus: "-", subtracted: "-", subtract: "-", difference: "-",
  multiply: "*", multiplied: "*", product: "*", divide: "/", divided: "/", quotient: "/", ratio: "/",
  squared: "^", cubed: "^", power: "^", exponent: "^", mod: "%", modulo: "%", remainder: "%",
  sqrt: "sqrt", root: "sqrt", factorial: "!", log: "log", logarithm: "log", derivative: "d/dx", differentiate: "d/dx", integral: "integral", integrate: "integral",
  equals: "=", equal: "=",
};

/** Units and currencies, each form mapped to one canonical unit. Single letters count only after a number. */
const UNIT_GROUPS: Readonly<Record<string, string[]>> = {
  kg: ["kg", "kgs", "kilogram", "kilograms", "kilo", "kilos"], g: ["g", "gram", "grams", "gr"], mg: ["mg", "milligram", "milligrams"],
  lb: ["lb", "lbs", "pound", "pounds"], oz: ["oz", "ounce", "ounces"], t: ["ton", "tons", "tonne", "tonnes"],
  km: ["km", "kms", "kilometer", "kilometers", "kilometre", "kilometres"], m: ["m", "meter", "meters", "metre", "metres"],
  cm: ["cm", "centimeter", "centimeters", "centimetre", "centimetres"], mm: ["mm", "millimeter", "millimeters", "millimetre", "millimetres"],
  mi: ["mi", "mile", "miles"], ft: ["ft", "foot", "feet"], in: ["inch", "inches"], yd: ["yd", "yard", "yards"], nmi: ["nautical"],
  l: ["l", "liter", "liters", "litre", "litres"], ml: ["ml", "milliliter", "milliliters", "millilitre", "millilitres"], gal: ["gal", "gallon", "gallons"],
  cup: ["cup", "cups"], tbsp: ["tbsp", "tablespoon", "tablespoons"], tsp: ["tsp", "teaspoon", "teaspoons"], pt: ["pint", "pints"], qt: ["quart", "quarts"],
  celsius: ["°c", "celsius", "centigrade"], fahrenheit: ["°f", "fahrenheit"], kelvin: ["kelvin", "k"], degree: ["°", "degree", "degrees", "deg"],
  ms: ["ms", "millisecond", "milliseconds"], s: ["s", "sec", "secs", "second", "seconds"], min: ["mins", "minute", "minutes"],
  h: ["h", "hr", "hrs", "hour", "hours"], day: ["day", "days"], week: ["week", "weeks", "wk"], month: ["month", "months"], year: ["yr", "yrs", "year", "years"],
  b: ["byte", "bytes"], kb: ["kb", "kilobyte", "kilobytes", "kib"], mb: ["mb", "megabyte", "megabytes", "mib"], gb: ["gb", "gigabyte", "gigabytes", "gib"], tb: ["tb", "terabyte", "terabytes", "tib"],
  bit: ["bit", "bits"], kbps: ["kbps"], mbps: ["mbps"], gbps: ["gbps"],
  hz: ["hz", "hertz"], khz: ["khz"], mhz: ["mhz"], ghz: ["ghz"], w: ["w", "watt", "watts"], kw: ["kw", "kilowatt", "kilowatts"], kwh: ["kwh"], v: ["v", "volt", "volts"], a: ["amp", "amps", "ampere", "amperes"],
  mph: ["mph"], kph: ["kph", "kmh", "km/h"], mps: ["m/s"], cal: ["cal", "calorie", "calories", "kcal"], j: ["joule", "joules"], pa: ["pa", "pascal", "psi", "bar", "atm"],
  acre: ["acre", "acres"], ha: ["hectare", "hectares"], sqft: ["sqft"], percent: ["%", "percent", "percentage", "pct"],
  usd: ["$", "usd", "dollar", "dollars", "buck", "bucks"], eur: ["€", "eur", "euro", "euros"], gbp: ["£", "gbp", "sterling"], jpy: ["¥", "jpy", "yen"], cny: ["cny", "rmb", "yuan"],
  inr: ["₹", "inr", "rupee", "rupees"], btc: ["btc", "bitcoin", "bitcoins"], cent: ["cent", "cents"],
};
/** Unit words that are also ordinary words; they are units only right after a number ("5 m", "2 days"). */
const UNIT_NEEDS_NUMBER: ReadonlySet<string> = new Set(["m", "g", "s", "l", "h", "w", "v", "k", "a", "t", "in", "day", "days", "week", "weeks", "month", "months", "year", "years", "cup", "cups", "bar", "min", "deg", "gr", "wk", "cal", "second"]);

function buildUnits(): Map<string, string> {
  const units = new Map<string, string>();
  for (const [canonical, forms] of Object.entries(UNIT_GROUPS)) for (const f of forms) units.set(f, canonical);
  return units;
}
const UNITS = buildUnits();

export function unitOf(word: string, afterNumber: boolean): string | undefined {
  const unit = UNITS.get(word);
  if (unit === undefined) return undefined;
  return !UNIT_NEEDS_NUMBER.has(word) || afterNumber ? unit : undefined;
}

/** Programming and markup languages, keyed by every spelling users write. Ambiguous ones are handled in facets.ts. */
export const PROGRAMMING_LANGUAGES: Readonly<Record<string, string>> = {
  python: "python", python3: "python", py: "python", javascript: "javascript", js: "javascript", node: "javascript", nodejs: "javascript",
  typescript: "typescript", ts: "typescript", java: "java", kotlin: "kotlin", scala: "scala", groovy: "groovy", clojure: "clojure",
  "c++": "c++", cpp: "c++", cplusplus: "c++", "c#": "c#", csharp: "c#", "f#": "f#", fsharp: "f#", "objective-c": "objective-c", objc: "objective-c",
  golang: "go", rust: "rust", ruby: "ruby", php: "php", perl: "perl", swift: "swift", dart: "dart", lua: "lua", julia: "julia", matlab: "matlab",
  haskell: "haskell", ocaml: "ocaml", elixir: "elixir", erlang: "erlang", elm: "elm", zig: "zig", nim: "nim", crystal: "crystal", fortran: "fortran", cobol: "cobol",
  pascal: "pascal", delphi: "pascal", vba: "vba", vb: "vba", visualbasic: "vba", bash: "bash", sh: "bash", shell: "bash", zsh: "zsh", powershell: "powershell", fish: "fish",
  sql: "sql", mysql: "mysql", postgresql: "postgresql", postgres: "postgresql", sqlite: "sqlite", plsql: "plsql", tsql: "tsql",
  html: "html", css: "css", scss: "scss", sass: "scss", solidity: "solidity", assembly: "assembly", asm: "assembly", wasm: "webassembly", webassembly: "webassembly",
  prolog: "prolog", lisp: "lisp", scheme: "scheme", racket: "racket", verilog: "verilog", vhdl: "vhdl", cuda: "cuda", glsl: "glsl", hlsl: "hlsl", latex: "latex", tex: "latex",
  react: "react", vue: "vue", angular: "angular", svelte: "svelte", django: "django", flask: "flask", rails: "rails", spring: "spring", jquery: "jquery", pandas: "pandas", numpy: "numpy",
};
/** Names that are languages only in code context ("in C", "using R", "Go code"), since they are also letters and verbs. */
export const AMBIGUOUS_LANGUAGES: Readonly<Record<string, string>> = { c: "c", r: "r", go: "go", d: "d" };
export const CODE_CONTEXT_WORDS: ReadonlySet<string> = new Set(["in", "using", "with", "to", "into", "code", "program", "programs", "script", "function", "language", "implementation", "implement", "write", "version", "library", "compiler"]);

export const NATURAL_LANGUAGES: ReadonlySet<string> = new Set([
  "english", "french", "spanish", "german", "italian", "portuguese", "chinese", "mandarin", "cantonese", "japanese", "korean", "russian", "arabic", "hindi",
  "bengali", "urdu", "punjabi", "turkish", "dutch", "swedish", "norwegian", "danish", "finnish", "polish", "greek", "hebrew", "vietnamese", "thai",
  "indonesian", "malay", "persian", "farsi", "swahili", "latin", "ukrainian", "czech", "romanian", "hungarian", "tagalog", "filipino", "tamil", "telugu",
  "marathi", "gujarati", "catalan", "basque", "irish", "welsh", "esperanto", "icelandic", "croatian", "serbian", "bulgarian", "slovak", "slovenian",
  "estonian", "latvian", "lithuanian", "afrikaans", "zulu", "yoruba", "amharic", "nepali", "sinhala", "burmese", "khmer", "lao", "mongolian", "pirate",
]);

/** Output shapes. Two prompts asking for different shapes ("as JSON" / "as YAML", "a haiku" / "a limerick") want different answers. */
export const OUTPUT_FORMATS: Readonly<Record<string, string>> = {
  json: "json", jsonl: "jsonl", ndjson: "jsonl", yaml: "yaml", yml: "yaml", toml: "toml", xml: "xml", csv: "csv", tsv: "tsv", ini: "ini",
  markdown: "markdown", md: "markdown", html: "html", latex: "latex", pdf: "pdf", rtf: "rtf", plaintext: "plaintext", ascii: "ascii", emoji: "emoji", emojis: "emoji",
  table: "table", tables: "table", tabular: "table", bullet: "bullets", bullets: "bullets", bulleted: "bullets", numbered: "numbered", checklist: "checklist",
  paragraph: "paragraph", paragraphs: "paragraph", essay: "essay", essays: "essay", poem: "poem", poems: "poem", haiku: "haiku", haikus: "haiku", limerick: "limerick",
  sonnet: "sonnet", song: "song", lyrics: "song", rap: "rap", story: "story", stories: "story", tweet: "tweet", tweets: "tweet", email: "email", emails: "email",
  letter: "letter", memo: "memo", outline: "outline", diagram: "diagram", flowchart: "flowchart", chart: "chart", graph: "graph", mermaid: "mermaid", uml: "uml",
  regex: "regex", regexp: "regex", pseudocode: "pseudocode", script: "script", dialogue: "dialogue", dialog: "dialogue", slogan: "slogan", headline: "headline",
  title: "title", titles: "title", joke: "joke", jokes: "joke", riddle: "riddle", quiz: "quiz", recipe: "recipe", resume: "resume", cv: "resume", slides: "slides",
  word: "word", words: "word", sentence: "sentence", sentences: "sentence", line: "line", lines: "line", characters: "characters", chars: "characters", page: "page", pages: "page",
};

/**
 * Words left out of the named-entity test even when capitalised mid-sentence (the pronoun "I" and
 * the titles of capitalised prompts are not names).
 */
export const NOT_ENTITIES: ReadonlySet<string> = new Set(["i", "i'm", "i've", "i'd", "i'll", "ok", "okay", "hi", "hello", "hey", "please", "thanks", "thank"]);
