/**
 * Training data written for this project (issue 30, helper "pii", 2026-11-26), not from any data set:
 * given names and family names of many cultures, street addresses in the formats of the UK, Canada,
 * Australia, Germany, India and the US (every street, town and postcode made up or a common pattern,
 * no real person's address), and sentence frames in the style the presidio templates lack: casual
 * chat (often lower case), names after form labels, sign-offs, addresses after a label or in a
 * sentence, and distractors (companies, products, cities alone, street names without a number,
 * common words that are also names opening a sentence).
 *
 * Written after bench/data/pii-newstyle-dev.txt (the development set), and kept apart from it: no
 * name word or address of the development set or of bench/data/pii-adversarial.json is in these lists
 * (checked by test/pii/tagger.test.ts), so the development figures read names the tagger never saw.
 */
import type { Rng } from "../data/rng";

/** Given names, by culture. */
const FIRST: Record<string, string[]> = {
  yoruba: "Adebola Ayodele Bolaji Damilola Funmilayo Kehinde Olamide Oluwadamilare Temitope Titilayo Yetunde Abimbola Oyinkansola Femi Segun Wale Bisi".split(
    " ",
  ),
  igbo: "Chiamaka Chinedu Chioma Ebuka Ikenna Nnamdi Obiageli Uchenna Amarachi Kelechi Somtochukwu Nkechi Chinonso Ugochi".split(" "),
  hausa: "Aminu Bashir Halima Hauwa Musa Sani Zainab Abubakar Garba Maryam Nasiru Usman".split(" "),
  ghana: "Kofi Akosua Ama Kwabena Yaw Efua Abena Kwaku Esi Kojo".split(" "),
  eastAfrica: "Wanjiru Kamau Otieno Achieng Baraka Njeri Mwangi Zawadi Tendai Rudo".split(" "),
  india:
    "Aarav Aditi Anil Ananya Deepak Divya Gaurav Harish Ishaan Kavya Meera Neha Pooja Rahul Ravi Sanjay Shreya Sneha Suresh Vivek Lalitha Karthik Srinivas Manpreet Gurpreet Harpreet Balaji Venkatesh Padma".split(
      " ",
    ),
  china: "Xiaoming Jing Hui Lei Ming Na Qiang Tao Xin Yan Ying Yong Zhen Jun Hao Bo Xiu".split(" "),
  vietnam: "Anh Binh Dung Hieu Huong Khanh Linh Long Nam Phuong Quang Son Thao Trang Tuan Thuy Hung".split(" "),
  arabic: "Ahmed Ali Amira Hassan Hussein Layla Mariam Nadia Omar Rania Samir Tariq Yasmin Zaid Karim Noura Salma Faisal".split(" "),
  korea: "Min-ho Ji-woo Seo-yeon Jae-won Hye-jin Sung-min Eun-ji Tae-yang Ha-eun Jin-woo Jiyeon Minseo".split(" "),
  turkey: "Emre Burak Elif Zeynep Can Deniz Cem Esra Fatih Hakan Merve Oğuz Serkan Tuğba Murat Ebru".split(" "),
  japan: "Haruto Yuki Sakura Takeshi Kenta Aiko Ryo Naoko Daisuke Emi Sota Yui".split(" "),
  persian: "Arash Dariush Farnaz Mahsa Navid Parisa Reza Shirin Kaveh Leila".split(" "),
  slavic: "Aleksandr Ekaterina Irina Katarzyna Magdalena Natalia Pavel Tomasz Vladimir Agnieszka Bogdan".split(" "),
  latin: "Alejandro Camila Diego Gabriela Javier Lucía Mateo Valentina Joaquín Ximena Thiago Beatriz".split(" "),
  // Given names that are also English words: a tagger must read them from context.
  wordlike:
    "Amber Autumn Brook Chase Faith Frank Heather Holly Iris Ivy Jade June Lily Miles Pearl Ruby Sky Violet Wade Ray Rich Jack Sunny Sandy Penny Ginger".split(
      " ",
    ),
  // More given names that are English words (issue 30, helper "pii2"), for the {W} frames below; none is
  // a name of bench/data/pii-newstyle-dev.txt or pii-newstyle-dev2.txt.
  wordlike2:
    "Pepper Clay Dale Gene Glen Reed Rusty Misty Robin Sage Melody Harmony Honor Patience Prudence Trinity Cliff Drew Duke Earl Art Ace Carol Crystal Coral Jewel Merry River Rocky Scout Sonny Wren Winter Forest Berry Candy Daisy Basil Jasmine Heath Moss".split(
      " ",
    ),
  english: "Aaron Becky Callum Danny Ellie Freddie Gemma Harry Isla Jamie Kirsty Liam Molly Niall Owen Poppy Rhys Shannon Tyler Zoe".split(" "),
};

/** Family names, by culture (a Chinese, Vietnamese or Korean one usually written first). */
const LAST: Record<string, string[]> = {
  nigeria:
    "Adewale Afolabi Akinola Babatunde Bamidele Ogunleye Olaniyan Oyelaran Adeyinka Obi Okeke Onyekachi Uzoma Nwankwo Igwe Anyanwu Ibekwe Ezeh Danjuma Abdullahi Yakubu Lawal".split(
      " ",
    ),
  ghana: "Asante Boateng Owusu Ofori Appiah Darko Agyeman Ansah".split(" "),
  eastAfrica: "Kariuki Odhiambo Njoroge Wambui Mutua Moyo Chikwanha".split(" "),
  india:
    "Agarwal Bhatt Chatterjee Desai Ghosh Gupta Joshi Kapoor Krishnan Kulkarni Menon Mishra Patel Pillai Reddy Sharma Srinivasan Subramanian Verma Chaudhary Banerjee Mukherjee Gill Sandhu Naidu".split(
      " ",
    ),
  china: "Huang Zhao Zhou Wu Xu Sun Ma Zhu Hu Guo He Lin Gao Luo Zheng Liang Xie Tang Han Feng".split(" "),
  vietnam: "Le Hoang Huynh Phan Vu Vo Dang Do Ho Ngo Duong Ly Trinh Dinh".split(" "),
  arabic: "Abdelrahman Al-Farsi Al-Mansouri Haddad Khalil Mahmoud Mansour Nasser Qureshi Saleh Al-Sayed Barakat Hamdan El-Amin".split(" "),
  korea: "Jung Kang Cho Yoon Jang Lim Shin Han Oh Seo Kwon Hwang Ahn Song".split(" "),
  turkey: "Çelik Şahin Yıldız Öztürk Özdemir Doğan Koç Kurt Özkan Polat Erdem Güneş".split(" "),
  japan: "Sato Suzuki Takahashi Ito Yamamoto Nakamura Kobayashi Kato Yoshida Yamada Sasaki".split(" "),
  persian: "Ahmadi Hosseini Karimi Mohammadi Rahimi Rezaei Moradi Jafari".split(" "),
  slavic: "Ivanov Kowalski Nowak Petrov Smirnov Wiśniewska Zieliński Novak Horvat".split(" "),
  latin: "Fernández González Hernández López Martínez Ramírez Sánchez Torres Castillo Vargas Morales Oliveira".split(" "),
  // Family names that are also English words.
  wordlike: "Bishop Bond Brook Carpenter Cook Fisher Fox Golden Hunter Long Mason Parsons Rich Sharp Stone Wood Little Bell".split(" "),
  english: "Ashworth Barnes Brennan Carter Doyle Fletcher Gallagher Harper Hughes Kennedy Lloyd Murphy Nolan Pearce Quinn Shaw Walsh".split(" "),
};

/** Every given name and every family name written here (for the shipped name list and the overlap test). */
export const WORLD_FIRST = Object.values(FIRST).flat();
export const WORLD_LAST = Object.values(LAST).flat();

// --- addresses ----------------------------------------------------------------------------------
const STREET_NAMES =
  "Church Station Victoria Albion Highfield Mill Park Elm Cedar Maple Willow Ash Birch Chestnut Meadow Orchard Kingsway Queens Windsor Stanley Clifton Beaconsfield Hawthorn Greenwood Fairview Lakeview Hillcrest Pine Spruce Laurel".split(
    " ",
  );
const UK_TYPES = "Road Street Lane Close Crescent Gardens Grove Avenue Way Terrace Drive Place Mews Row".split(" ");
const UK_TOWNS =
  "Bristol Sheffield Nottingham Leicester Brighton Reading Norwich York Exeter Glasgow Edinburgh Swansea Belfast Derby Bath Luton Coventry Plymouth".split(" ");
const CA_TYPES = "Street Avenue Boulevard Drive Road Crescent Way Trail".split(" ");
const CA_CITIES: [string, string][] = [
  ["Calgary", "AB"],
  ["Edmonton", "AB"],
  ["Winnipeg", "MB"],
  ["Halifax", "NS"],
  ["Hamilton", "ON"],
  ["Mississauga", "ON"],
  ["Kitchener", "ON"],
  ["Surrey", "BC"],
  ["Victoria", "BC"],
  ["Québec", "QC"],
  ["Laval", "QC"],
  ["Regina", "SK"],
  ["Saskatoon", "SK"],
];
const AU_TYPES = "Street Road Parade Avenue Highway Crescent Terrace Place Drive Esplanade".split(" ");
const AU_SUBURBS: [string, string][] = [
  ["Parramatta", "NSW"],
  ["Chatswood", "NSW"],
  ["Newtown", "NSW"],
  ["Carlton", "VIC"],
  ["Richmond", "VIC"],
  ["Geelong", "VIC"],
  ["Toowong", "QLD"],
  ["Southport", "QLD"],
  ["Fremantle", "WA"],
  ["Subiaco", "WA"],
  ["Glenelg", "SA"],
  ["Hobart", "TAS"],
  ["Belconnen", "ACT"],
];
const DE_STEMS = "Linden Garten Schiller Goethe Kirch Berg Wald Mühlen Rosen Schul Park Feld Bach Ring Hafen Markt Sonnen Eichen Birken".split(" ");
const DE_TYPES = ["straße", "weg", "gasse", "allee", "platz", "str."];
const DE_CITIES = "Hamburg Köln Frankfurt Stuttgart Düsseldorf Dortmund Essen Bremen Dresden Hannover Nürnberg Bonn Mannheim Freiburg Kiel".split(" ");
const IN_AREAS =
  "Koramangala Whitefield Jayanagar Powai Bandra West Andheri Salt Lake Banjara Hills Gachibowli Adyar Velachery Kothrud Aundh Vaishali Nagar Dwarka Rohini Saket".split(
    " ",
  );
const IN_CITIES: [string, string][] = [
  ["Hyderabad", "Telangana"],
  ["Chennai", "Tamil Nadu"],
  ["Pune", "Maharashtra"],
  ["Kolkata", "West Bengal"],
  ["Jaipur", "Rajasthan"],
  ["New Delhi", "Delhi"],
  ["Ahmedabad", "Gujarat"],
  ["Kochi", "Kerala"],
  ["Lucknow", "Uttar Pradesh"],
  ["Noida", "Uttar Pradesh"],
];
const US_TYPES = "Street Avenue Road Drive Lane Court Boulevard Way Place".split(" ");
const US_CITIES: [string, string][] = [
  ["Austin", "TX"],
  ["Denver", "CO"],
  ["Portland", "OR"],
  ["Madison", "WI"],
  ["Raleigh", "NC"],
  ["Tucson", "AZ"],
  ["Omaha", "NE"],
  ["Boise", "ID"],
];

const LETTERS = "ABCDEFGHJKLMNPRSTUWXYZ";

/** One made-up street address of a random country's format, and the bare street name in it (for the distractor frames). */
function address(rng: Rng): string {
  const pick = <T>(list: readonly T[]) => list[rng.int(list.length)]!;
  const num = (max: number) => String(1 + rng.int(max));
  const letter = () => LETTERS[rng.int(LETTERS.length)]!;
  const street = (types: readonly string[]) => `${pick(STREET_NAMES)} ${pick(types)}`;
  switch (rng.int(6)) {
    case 0: {
      const unit = rng.next() < 0.3 ? `Flat ${num(40)}, ` : "";
      const postcode = `${letter()}${letter()}${num(20)} ${num(9)}${letter()}${letter()}`;
      return `${unit}${num(200)} ${street(UK_TYPES)}, ${pick(UK_TOWNS)} ${postcode}`;
    }
    case 1: {
      const [city, province] = pick(CA_CITIES);
      const unit = rng.next() < 0.3 ? `${num(2000)}-` : "";
      const side = rng.next() < 0.3 ? ` ${pick(["East", "West", "North", "South"])}` : "";
      return `${unit}${num(9000)} ${street(CA_TYPES)}${side}, ${city}, ${province} ${letter()}${num(9)}${letter()} ${num(9)}${letter()}${num(9)}`;
    }
    case 2: {
      const [suburb, state] = pick(AU_SUBURBS);
      const r = rng.next();
      const head = r < 0.3 ? `${num(30)}/${num(300)}` : r < 0.45 ? `Unit ${num(30)}, ${num(300)}` : num(300);
      return `${head} ${street(AU_TYPES)}, ${suburb} ${state} ${2000 + rng.int(5000)}`;
    }
    case 3: {
      const name = rng.next() < 0.2 ? `Am ${pick(DE_STEMS)}${pick(["berg", "bach", "hof"])}` : `${pick(DE_STEMS)}${pick(DE_TYPES)}`;
      return `${name} ${num(150)}${rng.next() < 0.15 ? letter().toLowerCase() : ""}, ${String(10000 + rng.int(89999))} ${pick(DE_CITIES)}`;
    }
    case 4: {
      const [city, state] = pick(IN_CITIES);
      const pin = String(100000 + rng.int(899999));
      const r = rng.next();
      const head =
        r < 0.3
          ? `Flat No. ${num(900)}, ${num(12)}th Main`
          : r < 0.55
            ? `House No. ${num(999)}, Sector ${num(60)}`
            : r < 0.8
              ? `${letter()}-${num(600)}, ${pick(STREET_NAMES)} Residency`
              : `${num(80)}, ${pick(["MG Road", "Ring Road", "Station Road", "Temple", "Nehru Nagar"])}`;
      return `${head}, ${pick(IN_AREAS)}, ${city}${rng.next() < 0.5 ? `, ${state}` : ""} ${pin}`;
    }
    default: {
      const [city, state] = pick(US_CITIES);
      const unit = rng.next() < 0.25 ? `, Apt ${num(40)}` : "";
      return `${num(9000)} ${street(US_TYPES)}${unit}, ${city}, ${state} ${String(10000 + rng.int(89999))}`;
    }
  }
}

/** A street name with no number ("Willow Crescent"): a place, not an address. */
function streetAlone(rng: Rng): string {
  return `${STREET_NAMES[rng.int(STREET_NAMES.length)]!} ${UK_TYPES[rng.int(UK_TYPES.length)]!}`;
}

const CITIES = [
  ...UK_TOWNS,
  ...DE_CITIES,
  ...CA_CITIES.map((c) => c[0]),
  ...AU_SUBURBS.map((c) => c[0]),
  ...IN_CITIES.map((c) => c[0]),
  ...US_CITIES.map((c) => c[0]),
];
const HYPHENATED =
  "Self-hosted Read-only Built-in Follow-up Long-term Real-time Open-source Well-known Pre-order Check-in Sign-up Opt-out Non-blocking Cross-platform Multi-tenant High-level Low-latency Thread-safe Zero-copy Case-insensitive Write-ahead Auto-scaling Double-checked Re-indexed Half-open".split(
    " ",
  );
/** Given names that are also English words (the {W} frames). */
const WORDLIKE = new Set([...FIRST.wordlike!, ...FIRST.wordlike2!]);
/** The small words between a given and a family name in many cultures (the {Q} frames). */
const PARTICLES = ["de", "da", "dos", "de la", "del", "van", "van den", "von", "bin", "binti", "al", "ibn", "ter"];
/** Brands and terms named after people (capitalised words that are no one), written for this project (helper "pii2"); none is in either development set. */
const EPONYMS =
  "Porsche|Ferrari|Lamborghini|Chrysler|Chevrolet|Peugeot|Renault|Citroën|Boeing|Cessna|Siemens|Philips|Bosch|Gillette|Colgate|Heinz|Cadbury|Nestlé|Disney|Chanel|Gucci|Prada|Versace|Marriott|Hilton|Grafana|Django|Hadoop|Gradle|Bluetooth|Alzheimer's disease|Huntington's disease|Hodgkin's lymphoma|Tourette's syndrome|Bell's palsy|Ohm's law|Hooke's law|Moore's law|Boyle's law|Occam's razor|Halley's Comet|Pascal's triangle|Euler's formula|Fermat's last theorem|Kepler's laws|Avogadro's number|Planck's constant|the Fibonacci sequence|the Doppler effect|a Bunsen burner|the Richter scale|the Kelvin scale|a Petri dish|the Heimlich manoeuvre|the Turing test".split(
    "|",
  );
/**
 * Capitalised words of feature names, headings and product lines, joined two at a time into phrases
 * that are no one ({K}: "Playlist Shuffle:", "Vitamin Glow Serum"): the chat-export and minutes frames
 * above put a name before a colon, and without these a heading's words before one became names in
 * the development prompts (train.ts ERRORS=ordinary).
 */
const TITLE_WORDS =
  "Quick Smart Batch Macro Micro Auto Dark Light Deep Power Flex Ultra Prime Core Cloud Data Sync Stream Shift Glow Boost Guard Focus Pulse Spark Swift Vision Pixel Matrix Vector Signal Filter Export Import Toggle Layer Preview Playlist Queue Timer Scanner Planner Tracker Builder Studio Engine Module Panel Widget Portal Bridge Anchor Summit Orbit Nova Echo Zen Velvet Hydra Barrier Radiance Repair Balance Fusion Vault Ledger Beacon Compass".split(
    " ",
  );
const BRANDS =
  "Honda Civic|Nissan Leaf|Samsung Galaxy|Google Pixel|Nike Air Max|Adobe Photoshop|Netflix|Spotify|Zoom|Canva|Notion|Airbnb|Uber Eats|Tesco|Aldi|Lidl|Woolworths|Flipkart|Alibaba|Huawei|Xiaomi|Hyundai|Kia Sportage|Tata Motors|Infosys".split(
    "|",
  );

/**
 * `{P}` full name, `{F}` given name, `{L}` family name, `{W}` a given name that is an English word,
 * `{Q}` a full name with a particle ("de la", "bin") (a PERSON each); `{A}` an address (ADDRESS);
 * `{S}` a street name without a number, `{T}` a city, `{B}` a brand or product, `{H}` a capitalised
 * compound with a hyphen, `{E}` a brand or term named after a person, `{K}` a two-word heading (no span). A frame
 * with a lower-case slot (`{f}`, `{p}`, `{a}` ...) is lower-cased whole.
 */
export const WORLD_FRAMES = [
  // Casual chat, names alone and in lower case.
  "ask {f} if she's coming tonight",
  "lol {f} said that too",
  "tell {f} i'm running late",
  "omg {f} got the tickets!!",
  "{f} and {f} are coming over later",
  "can u ask {f} for the charger",
  "did {f} reply yet?",
  "i was with {f} all day",
  "{f} says hi btw",
  "ugh {f} forgot the keys again",
  "me and {f} went to the market",
  "pls call {f} back when u can",
  "haha {f} is always late",
  "my aunt {f} is visiting next week",
  "is {f} still at work?",
  "ok {f} thanks!!",
  "text {f} the address pls",
  "{F} said it's fine.",
  "{F} thinks we should wait.",
  "I told {F} about the party.",
  "Ask {F} before you book it.",
  "{F} and {F} are bringing the drinks.",
  "Did {F} ever pay you back?",
  "{F} is picking the kids up today.",
  "Just spoke to {F}, all sorted.",
  "Sorry {F}, I missed your call!",
  // Form labels and records.
  "Name: {P}",
  "Full name: {P}\nNationality: {T}",
  "Label: {P}",
  "Contact: {P}",
  "Guardian: {P}",
  "Sender: {P}\nRecipient: {P}",
  "Driver: {P}, licence on file",
  "Owner: {P}",
  "Applicant: {P}\nRole: Accountant",
  "Next of kin: {P}",
  "Beneficiary: {P}",
  "Tenant: {P}\nAddress: {A}",
  "Customer: {P}\nShipping address: {A}",
  "Patient: {P}\nBed: 12",
  "Requested by: {P}",
  "Approved by {P} on 03/04.",
  "name={P}",
  "customer_name: {P}",
  "Employee: {P} (ID 4471)",
  // Sentences with names of many cultures.
  "{P} joined the team last month.",
  "{P} asked for a refund.",
  "The invoice was sent to {P}.",
  "I met {P} at the workshop.",
  "Please call {P} about the delivery.",
  "{P}'s application is incomplete.",
  "Our tenant, {P}, reported a leak.",
  "Forward this to {P} and {P}.",
  "Meeting with {P} at 3pm.",
  "Dear {P}, your order has shipped.",
  "Hi {F}, your parcel is waiting.",
  "Thanks {F}, see you Monday.",
  "Hello {F}! Welcome aboard.",
  "Regards,\n{P}",
  "Cheers,\n{F}",
  "Best,\n{F}",
  "Thanks,\n{F}",
  "Kind regards,\n{P}\nOperations",
  "- {F}",
  "customer {P} called about order 5512",
  "ticket 8812: {P} cannot log in",
  "note from {f}: back at 4",
  "Mr {L} will call you back.",
  "Ms. {L} has approved it.",
  "Dr {L} is on leave.",
  "Prof. {L} chaired the session.",
  "Mrs {L} paid in cash.",
  // Addresses.
  "Ship to: {P}, {A}",
  "Address: {A}",
  "Billing address: {A}",
  "Postal address: {A}",
  "Registered office: {A}",
  "Return address: {A}",
  "Please send it to {A}.",
  "I moved to {A} in May.",
  "She lives at {A}.",
  "Our office is at {A}.",
  "Deliver to {A} before noon.",
  "The new address is {A}.",
  "Please update my address to {A}.",
  "{P}\n{A}",
  "new addy is {a} btw",
  "can u send it to {a}",
  "im at {a} now",
  "addr: {a}",
  // Distractors: no person, no address.
  "We walked down {S} to the station.",
  "The cafe on {S} is closed.",
  "Traffic is bad on {S} again.",
  "I flew from {T} to {T} last week.",
  "{T} is lovely in spring.",
  "The office in {T} is hiring.",
  "My {B} needs a new battery.",
  "Is the {B} worth it?",
  "We switched from {B} to {B}.",
  "{B} released an update today.",
  "Mark it as urgent.",
  "Will it rain tomorrow?",
  "Grace is a lovely word.",
  "Hope you're well!",
  "Rose petals everywhere.",
  "Frank feedback is welcome.",
  "Bill the client for two hours.",
  "Chase the supplier about the delay.",
  "Amber alert issued at noon.",
  "June was warmer than May.",
  "Sunny spells later today.",
  "Summarise the article in three bullet points.",
  "Describe the history of {T} in 100 words.",
  "Compare {B} and {B} for a student.",
  "Order 44812 ships to {T} on Friday.",
  // Cities alone where the frames above put a person ("to", "and", "from", "with"): the chat frames
  // had taught the tagger that a capitalised word after them is a name ("ships to Norwich and Ottawa").
  "The update ships to {T} and {T} first.",
  "Trains from {T} to {T} are delayed.",
  "She moved from {T} to {T} in 2019.",
  "We have offices in {T}, {T} and {T}.",
  "Is {T} or {T} cheaper for a weekend?",
  "The conference moves to {T} next year.",
  "Send the samples to the {T} lab.",
  "He was born in {T} and grew up near {T}.",
  "{T} won against {T} last night.",
  "Weather in {T} today: rain.",
  "Ask the team in {T} about it.",
  "Flights to {T} and {T} are cancelled.",
  // Capitalised compounds with a hyphen, which the hyphenated given names above ("Min-ho", "Al-Farsi")
  // had made look like names (test/pii/mask-restore.test.ts's "Card-like but Luhn-invalid:").
  "{H} mode is on by default.",
  "Note: {H} settings apply to every user.",
  "{H}: yes\n{H}: no",
  "Feature: {H} backups",
  "It is {H} but slow.",
  "Supports {H} and {H} builds.",
  "Status: {H}",
  "Fast and {H}: the new parser.",
  "The {T} branch opens at 9.",
  // Written by the helper "pii2" (issue 30, 2026-11-27), after bench/data/pii-newstyle-dev2.txt and
  // kept apart from it (no sentence, name, brand or label of it): names in chat exports, mail headers,
  // minutes, transcripts, commit trailers and table rows; given names that are English words as the
  // subject or object of a sentence ({W}); names with particles ({Q}); and words that are no one:
  // brands and terms named after people ({E}), headings and product lines ({K}). Frames of field labels in
  // other languages, languages and feasts were tried and left out: with them the new-style development
  // set's PERSON recall fell 0.883 -> 0.838 (six seeds each).
  "[09:12] {f}: anyone free for lunch?",
  "[16:58] {f}: ok heading out",
  "[11:03] {P}: deployed to staging, please test",
  "From: {P} <office@example.net>\nTo: {P}\nSubject: invoice 2231",
  "On Wed, {P} wrote:\n> works for me",
  "Cc: {P}, {P}",
  "Present: {P}, {P}, {P}\nApologies: {P}",
  "Action: {F} to book the room.",
  "Chair: {P}. Notes: {P}.",
  "Agent: Thanks, {F}. Let me check that for you.",
  "Customer: hi, this is {P}, I have a question about my bill",
  "Signed-off-by: {P} <dev@example.org>",
  "Tested-by: {P}",
  "4411,{P},{T},active",
  "| 12 | {P} | in review |",
  "{W} is off sick today.",
  "{W} is out until Monday.",
  "Can {W} cover my shift on Friday?",
  "Could {W} check the figures again?",
  "Did {W} sign the form?",
  "{W} sorted it out in five minutes.",
  "{W} fixed the printer this morning.",
  "Thanks to {W} for the quick reply.",
  "{W} from support called back.",
  "{W} at reception was really kind.",
  "I asked {W} and {W} to join the call.",
  "{W} {L} will lead the review.",
  "{W} and I are going to the game.",
  "{F} {Q} approved the contract.",
  "Witness: {Q}",
  "Account holder: {Q}",
  "{K}: clears the queue and starts again.",
  "**{K}:** on by default",
  "- {K}: not available on mobile",
  "Feature {K} is in beta.",
  "Try the {K} setting first.",
  "Our {K} serum sold out in a day.",
  "[{K}: notes for the team]",
  "Step 3 - {K}: check the output.",
  "Our {E} arrived yesterday.",
  "We serviced the {E} last week.",
  "The {E} update broke the build.",
  "Is {E} worth the price?",
  "{E} is explained in chapter 4.",
  "What is {E} in simple words?",
  "Explain {E} to a ten-year-old.",
];

/** The parts a world frame is filled with: a fold's names, plus every address, street, city and brand. */
export interface WorldNames {
  first: string[];
  last: string[];
}

/** The given and family names written here whose fold (by `foldOf` of the word) is `fold`. */
export function worldNamesOfFold(foldOf: (word: string) => number, fold: number): WorldNames {
  return { first: WORLD_FIRST.filter((w) => foldOf(w) === fold), last: WORLD_LAST.filter((w) => foldOf(w) === fold) };
}

/** The fillers of a world frame's slot kind (letter upper-cased), made up per use. */
export function worldFiller(kind: string, names: WorldNames, rng: Rng): string {
  const pick = (list: readonly string[]) => list[rng.int(list.length)]!;
  switch (kind) {
    case "P":
      return `${pick(names.first)} ${pick(names.last)}`;
    case "F":
      return pick(names.first);
    case "L":
      return pick(names.last);
    case "A":
      return address(rng);
    case "S":
      return streetAlone(rng);
    case "T":
      return pick(CITIES);
    case "W": {
      const own = names.first.filter((w) => WORDLIKE.has(w));
      return pick(own.length > 0 ? own : [...WORDLIKE]);
    }
    case "Q":
      return `${pick(names.first)} ${pick(PARTICLES)} ${pick(names.last)}`;
    case "E":
      return pick(EPONYMS);
    case "K":
      return `${pick(TITLE_WORDS)} ${pick(TITLE_WORDS)}`;
    case "H":
      return pick(HYPHENATED);
    default:
      return pick(BRANDS);
  }
}
