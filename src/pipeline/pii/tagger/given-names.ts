import { TokenWordSet } from "./features";

/**
 * Given names of many cultures, written for this project from general knowledge (issue 30, fourth
 * round, helper "pii", 2026-11-27; no data set copied), for the context rules of frames.ts: a word in
 * a frame that takes a person ("ask dave if", "@noor", "anna.kowalski") is a name only if it is a
 * given name. Written after the four new-style development sets were read, so some of their names are
 * here; bench/data/pii-newstyle-check2.txt was scored once, after. English words among them (Will,
 * Grace, Mark, Hope) are told apart by the case profile where the rules read them.
 */
const GIVEN_NAMES =
  // English-speaking
  (
    "aaron abby abigail adam adrian aidan alan albert alex alexa alexander alexis alfie alice alicia alison allan allison amanda amber amelia amy andrea andrew andy angela angie ann anna anne annie anthony april archie arthur ashley audrey austin ava barbara barry becky ben benjamin beth bethany betty beverly bill billy blake bob bobby bonnie brad bradley brandon brenda brendan brett brian bridget brittany brooke bruce bryan caitlin caleb calvin cameron carl carly carol caroline carrie casey catherine cathy chad charles charlie charlotte chase chelsea cheryl chloe chris christina christine christopher cindy claire clara claude colin connor craig crystal curtis cynthia daisy dale dan dana daniel danielle danny darren dave david dawn dean debbie deborah denise dennis derek destiny diana diane donald donna doris dorothy doug douglas dusty dylan eddie edward eileen elaine eleanor elijah elizabeth ella ellen ellie emily emma eric erica erin ethan eugene eva evan evelyn faith fiona frances frank freddie gabriel gail gary gavin gemma george georgia gerald gina glen glenn gloria gordon grace graham greg gregory hailey hannah harold harriet harry harvey hayley heather helen henry holly hope howard hunter ian isaac isabel isabella isla jack jackie jacob jade jake james jamie jane janet janice jared jason jasmine jeff jeffrey jen jenna jennifer jenny jeremy jerry jess jesse jessica jill jim jimmy jo joan joanna joanne jodie joe joel john johnny jon jonathan jordan joseph josh joshua joy joyce judith judy julia julie june justin karen kate katherine kathleen kathryn kathy katie kayla keith kelly ken kenneth kerry kevin kim kimberly kirsty kyle laura lauren leah lee leo leon lewis liam lily linda lindsay lisa liz lizzie logan lois louise lucas lucy luke lydia lynn madison maggie mandy marcus margaret maria marie marilyn mark martha martin mary matt matthew megan melanie melissa michael michelle mike millie mitchell molly morgan nancy naomi natalie nathan neil nicholas nick nicola nicole noah norman oliver olivia oscar owen paige pamela patience patricia patrick paul paula peggy penny peter phil philip phoebe rachel ralph randy rebecca richard rick rob robert robin rodney roger ronald rosie ross ruby russell ruth ryan sally sam samantha samuel sandra sara sarah scott sean seth shane shannon sharon shaun sheila shirley simon sophia sophie stacey stanley stephanie stephen steve steven stuart sue susan suzanne sydney tammy tanya taylor ted teresa terry theo theresa thomas tiffany tim timothy tina toby todd tom tommy tony tracy travis trevor troy tyler valerie vanessa vicky victoria vincent virginia walter wayne wendy wesley will william willow zach zoe aaliyah darnell deshawn imani jamal keisha latoya shanice tyrone " +
    // Irish, Scottish, Welsh
    "aisling aoife caoimhe ciara cian conor declan eamon eoin fergus fionn niamh oisin orla padraig roisin seamus siobhan sinead tadhg aled bryn cerys dafydd gethin rhys sian ewan hamish morag " +
    // Latin, Portuguese, Italian, French, Spanish
    "adriana agustin alejandra alejandro alvaro ana andres antonio beatriz camila carla carlos carmen catalina cristina daniela diego eduardo elena emilio enrique esteban federico felipe fernanda fernando francisco gabriela gonzalo guadalupe guillermo hector ignacio ines isabela javier jimena joaquin jorge jose juan julio laura lorena lorenzo lucia luis manuel marcela marco marcos mariana mario marisol martina mateo miguel natalia nicolas pablo paola pedro rafael ramon raul ricardo roberto rodrigo rosa santiago sergio sofia tomas valentina veronica ximena xochitl thiago joao paulo bruna larissa leticia rafaela giulia giovanni giuseppe francesca chiara alessandro matteo luca marco federica paolo stefano lorenza elisa antoine camille chloe clement elodie etienne florian francois julien mathieu nathalie pierre sebastien thibault yannick " +
    // German, Dutch, Nordic, Baltic
    "anders anke anneke astrid bjorn dirk elke erik finn frida freya gerrit gunnar hanna hannes heike ingrid jan jens johan jonas jurgen karin katrin klaus lars lena lukas maja malin marit mats nils ole pieter ruud sanne sigrid stefan sven thijs tobias ulla ulrich wouter inga liga janis andris " +
    // Slavic, Hungarian, Greek, Balkan, Caucasus
    "agnieszka aleksandra alexei anastasia andrei anton bogdan boris darko dmitri dragan ekaterina goran igor ilona irina ivan jelena katarzyna kasia marek milan milos natasha nikola oksana olga pavel piotr sergei svetlana tatiana teodora tomasz vesna viktor vladimir wojtek yulia zofia zoltan laszlo gabor eszter dimitris eleni giorgos katerina nikos sofia giorgi nino tamar ani armen " +
    // Arabic, Persian, Turkish, Hebrew, Central and South Asian
    "abdullah ahmad ahmed aisha ali amina amir amira ayesha bilal fatima farid faisal hamid hamza hassan hussein ibrahim imran karim khalid layla leila mahmoud mariam mohamed mohammed muhammad mustafa nadia noor nour omar rania rashid reza samir sara tariq yasmin youssef yusuf zainab zaid zara darius farnaz mahsa navid parisa shirin elif emre mehmet zeynep murat ayse avi eitan noa yael tamar yossi aigerim asel bolat nurlan yerlan dinara timur rustam farida gulnara " +
    "aarav aditi akash amit anil anjali arjun deepak divya gaurav harish kavya krishna lakshmi manish meera neha nikhil pooja priya rahul raj rajesh ravi rohan sanjay shreya siddharth sneha sunil suresh vikram vivek anand arun karthik lalitha priyanka sana farhan tanvir rukhsana " +
    // East and Southeast Asian
    "wei jing hui lei ming xiaoming jun hao yan ying mei li chen lin yuki haruto hiroshi kenji takeshi sakura yui aiko ren rin daisuke minjun jiwoo seojun hyun jiyeon minseo anh binh duc dung hieu huong khanh linh minh phuong quang thao trang tuan somchai malee nattaya ayu budi dewi putri rizal siti wayan jose maricel rhea " +
    // African
    "abena ama akosua kofi kwame kwabena yaw efua adebayo ayodele babajide bisi bolaji chidi chidinma chinedu chioma chinonso ebere emeka femi folake funmi ifeoma ikenna kelechi ngozi nkechi nnamdi obinna olamide olu segun tunde temitope uchenna wale yetunde amaka aminu musa sani halima hauwa abubakar garba baraka wanjiru njeri otieno achieng wambui zawadi tendai rudo thabo thandiwe sipho bongani lerato nomvula themba zanele lwazi mbali thulani nandi kagiso ayanda dembe mahlet tadesse abebe hana selam dawit mekdes amare " +
    // Pacific, Maori, Native American, Andean
    "aroha hemi kiri mere ngaio paora rangi tane tama wiremu manaia kahu moana keanu kailani noelani leilani malia sina tevita sione losa ahanu aiyana amaru killa tupac nayeli"
  )
    .split(" ")
    .filter((w) => w.length > 1);

/**
 * Given names that are also English words, beyond those the case profile calls mostly lower-case or
 * mixed (will, mark, grace, bill, hope ...): a rule takes one only in a narrow frame ("ask dawn if").
 */
const WORDLIKE =
  "art autumn bella bill bob brook buddy chase clay cliff dawn dean don dusty faith forrest frank ginger grace guy harmony heath heather holly honey hope iris ivy jack jade jay joy june lance lily mark max may miles misty pat pearl penny rob rocky rose ruby rusty sandy skip sky sonny sue summer sunny victor violet wade warren will willow april august".split(
    " ",
  );

export const GIVEN_NAME_WORDS = new TokenWordSet([...GIVEN_NAMES, ...WORDLIKE]);

/**
 * More given names of many cultures (West, East and Southern African, Indian, Pakistani, Bangladeshi,
 * Arabic, Persian, Turkish, Chinese, Japanese, Korean, Vietnamese, Indonesian, Thai, Slavic, Hungarian,
 * Romanian, Balkan, Greek, Nordic, Dutch, German, French, Italian, Iberian, Latin American, Maori and
 * Hawaiian), written for this project from general knowledge (issue 30, eighth round, helper "pii8",
 * 2026-11-27; no data set copied), for the rules of plain-names.ts only: the other rules' frames ("ask
 * dev if") keep the list above. Those of three letters or more, less every name word of the eighth
 * round's check set (bench/data/pii-own8-check.txt), which was written before this list: 20 names.
 */
const MORE_GIVEN_NAMES = (
  "aarti abdul abdulrahman abenaa abhishek abimbola abiodun adaeze adanna adaobi adebola adeola adewale aditya adnan adunni advait adwoa afia afolabi " +
  "afonso agnes agnetha agostino ahmet ahsan aino aitana ajay akin akinyi akira akram akshay akua akwasi alba alberto aleksandar aleksander aleksandr " +
  "alena aliaksandr alina almaz alok amal amani amara amarachi amitabh amparo amrit ananya anatoly anbu anca andreea andriy andrzej anele anesu anika " +
  "aniko anneliese annika anouk anupam anwar apinya apurva arantxa arash arief arkadiusz arnar artem arvind asante ashok asif asma asuka athanasios " +
  "attila aurelie ayaan ayaka aylin ayman ayo ayotunde aziz babak bahati balaji baljit bambang bamidele bao bartek bartosz basma beatrice begona behnam " +
  "bekele bengt benicio benoit bernd bhavna bheki biljana birgitta bjarni bogdana bohdan bohumil borislav borys bram branka brigitte bruno burak bushra " +
  "busisiwe caetano can candela carlo catalin cedric cem cesare chau chege chetan chiamaka chibuzo chika chimamanda chimezie chinwe chipo christos " +
  "chukwuma chun claudio conceicao consuelo cosmin csaba czeslaw daan dagmar daiki dalia daria dario dariush dariusz dat dawid dayo deepa dejan delphine " +
  "denis deniz despina detlef dev dhruv dian didier diep dieter dimitra dinesh dmitry dongha dorota dragana dragos duarte dulce dumisani ebru ebuka eero " +
  "efia ehsan einar ejike ekene eko ekow elin elina elzbieta emi emine eniola enitan enrico ernesto erzsebet esi esperanza esra ettore eunji evangelos " +
  "evgeny eydis fabio fabrice fahad faizan fang farah farai fares farhad farrukh fatma fedor femke ferenc fidel fiifi filippo fitri floor florin folarin " +
  "franco frantisek funke galina ganesh gang gbenga gede genet genevieve gennady gerardo gerhard ghada giang gianluca gilles giorgio girish gisela gita " +
  "gizem golnar goncalo gopal grazyna grigory grzegorz guang gudrun gunter gurpreet gustav gyorgy gyula habib habibur hadi hafdis hai haider haile hakan " +
  "hala halina halyna hamed hanan hanh hannelore hannu haoran hari harjit harpreet harsha haruka hasan heikki heinz helene helga helmut hema hendra herve " +
  "hiba hina hinata hind hine hiroko hiroto hjalmar hoa hong horst hortensia hua huda hulya hung hyejin ijeoma ikechukwu iker ilaria ilkka ilse ilyas " +
  "iman imelda indah indira inmaculada ioana ioannis ionut irfan isa isabelle ishaan ishita isidro istvan itziar ivana ivica jabari jacek jacques jadwiga " +
  "jahanara jakub jamila jana janos janusz jari jaroslav jaroslaw jaspreet jasvinder jaya jayant jerzy jia jian jide jie jihoon jiri jisoo jiwon joaquim " +
  "jocelyn joko jolanta joost jordi jorg josep jovana jozsef juha jukka juma junaid jungkook jutta kabir kadek kahurangi kai kaito kalle kamal kamau " +
  "kamil kamila kamrul kanoa kanya kari kariuki karl karolina karthikeyan kashif katalin kaveh kavitha kayode kazuki kebede kehinde keiko kekoa kemal " +
  "kenta keola kerstin ketut khadija khanyisile khoa kian kibet kiprono kiran kirill kishore kittisak kobina koji kojo konstantin konstantinos kostas " +
  "kristjan krisztina krystyna krzysztof ksenia kudzai kulwant kumaran kunal kunle kwaku kwasi ladislav laila lajos lakshman lani lanre lasse lata lauri " +
  "leandro lech leire lenka lennart leonor leszek lev leyla lian lieke lina linnea lola long loredana lothar lucie lucien lucio lukasz lupita lyudmila " +
  "maarten maciej made madhu mafalda magdalena magnus mahesh mahmudul mai maite majid makoa malgorzata malik mami manfred manoj manpreet marcel marcin " +
  "margaux maricruz marija mariko marites marius mariusz marketa markku martine marwa maryam masato massimo maurizio maxim maxime meena meenakshi mehdi " +
  "mehrdad mehwish mereana mert meseret metin michal mihaela mihai mikael mikhail mikko miklos milica min mina minho mircea miroslav miroslaw misaki " +
  "modupe mohan mona monika montserrat mpho mukesh mulugeta munir murugan mwajuma mwangi mykhailo mykola myra nabil nadezhda nagaraj nam nana nandini " +
  "naoki nasima nasrin nasser natsuki naveed naveen navjot nazli nebojsa neema nenad nestor nga ngaire ngoc nhung nicoletta nida niels nikau nikita ning " +
  "niran nisha nizar njoroge nkem nneka nnenna nokuthula nomsa ntombi nuria nyasha nyokabi nyoman ochieng octavio odera odhiambo ogechi okechukwu oladele " +
  "olafur oleg oleksandr oleksiy olena olivier oluchi olumide oluwatobi omid omondi ondrej onyeka opeyemi osagie osvaldo ovidiu ozan padma paivi palani " +
  "palesa pallavi panagiotis pankaj paramjit parvati pascal patrice pawel payam pekka peng pernilla petra petro philippe phong phuc piero pilar pim ping " +
  "pirjo ploy polina prakash pranav prasad predrag preeti przemyslaw pua qasim qiang qing quan quynh radek radka radoslaw radu rafal rafiq raghavan rahim " +
  "rainer rajinder rajiv rakesh raluca rami rana ranjit ranko raphael rawiri refilwe regis rehema reinhard rekha remi renata renate renato revathi " +
  "reyansh riad riccardo rigoberto riikka riku rina ritu rizwan rocio rodel roel rohit rolf roman rommel rong roya rubina rui rumbidzai ruslan ryo ryota " +
  "ryszard sabine sachin sahar saima salim salma salvatore samira sanaz sandeep sander sandor sandrine sangeeta sanjana sanna santosh saravanan sarka " +
  "saroj satish satoshi satu seema selin selvi semyon senthil seojin seppo serge serkan seun shadi shafiq shahid shahram shalini shan shankar sharmila " +
  "shilpa shiv shobha shota shyam sibel sibusiso sigridur sigurdur silke silvia simisola simone simran siyabonga sizwe sjoerd slawomir slobodan smita " +
  "snezana sobia socorro solene somsak son sonal song sora soraya sorin soyeon spyros srdjan sri sridhar srinivasan stanislav stanislaw stavros stefania " +
  "sten stijn stojan subhash subramanian sudha sujata sukhwinder sumit sunee sungmin sunita supachai svetozar swati sylvie szymon tadeusz taeyang tahir " +
  "tahira tahmina takumi tam tamas tamati tanvi tao tapio tapiwa tara taras tarek tarun tatenda teguh thanawat thanh thierry thora thu thuy tiago tien " +
  "tigist tijs timofey ting tiziana tobi tochukwu tolga tolu tomoko torbjorn torsten tosin trung tudor tugba tui tumaini tumelo tuomas tuyet txema uche " +
  "uday ugochi ulf uma umberto urszula usha uwe uzma vaclav valentin valery van varun vasanth vasco vasilis vasily vasyl veikko venkat venkatesh vera " +
  "vidya viggo vihaan vijay vinh vinod vittoria vojtech volkan volker volodymyr wael wafula wahyu wairimu walid wanjiku waqas wekesa wen wieslaw wilfredo " +
  "willem wim witold wolfgang xavier xia xiao xin xiu xuan xue yaa yamini yang yaroslav yasaman yasemin yash yasin yasir yegor yejin yemi yen yesenia " +
  "yevgeny yevhen yiannis yichen yinka yohannes yoko yonas yong yousef yudi yue yuka yuliya yumi yun yuna yuri yusuke yuto yuxuan yves zaki zayn zbigniew " +
  "zdenek zdzislaw zeinab zeljko zhanna zhao zhen zhi zhou zihan zixuan zodwa zoran zsofia zsuzsanna zubair zuberi zuzana"
).split(" ");

/** The given names plain-names.ts reads: the list above, the word-like ones and the more. */
export const LISTED_GIVEN_NAME_WORDS = new TokenWordSet([...GIVEN_NAMES, ...WORDLIKE, ...MORE_GIVEN_NAMES]);

/** The names as a set of strings, for a word outside ASCII folded to its letters without accents (foldedGivenName). */
const GIVEN_NAME_SET: ReadonlySet<string> = new Set([...GIVEN_NAMES, ...MORE_GIVEN_NAMES]);

const LATIN_ACCENTED = /[\u00c0-\u024f]/;

/**
 * Whether a word outside ASCII is a given name of the list once its accents are dropped: the list
 * writes "ramon", "jurgen", "ines" (issue 30, eighth round: "Ramón Espinoza", "Jürgen Haas" on the
 * outside development set, bench/data/pii-outside-dev.txt).
 */
/** Whether a lower-case spelling is a given name of the lists (GIVEN_NAMES and MORE_GIVEN_NAMES). */
export const givenNameSpelled = (word: string) => GIVEN_NAME_SET.has(word);

export function foldedGivenName(word: string): boolean {
  // Only a Latin letter with an accent folds to the list's letters: words of other scripts are not normalised (0.4% of detectPii's time on prompts).
  if (!LATIN_ACCENTED.test(word)) return false;
  return GIVEN_NAME_SET.has(word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase());
}
export const WORDLIKE_NAME_WORDS = new TokenWordSet(WORDLIKE);
