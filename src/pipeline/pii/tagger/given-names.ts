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

/** The list's names as a set of strings, for a word outside ASCII folded to its letters without accents (foldedGivenName). */
const GIVEN_NAME_SET: ReadonlySet<string> = new Set(GIVEN_NAMES);

/**
 * Whether a word outside ASCII is a given name of the list once its accents are dropped: the list
 * writes "ramon", "jurgen", "ines" (issue 30, eighth round: "Ramón Espinoza", "Jürgen Haas" on the
 * outside development set, bench/data/pii-outside-dev.txt).
 */
export function foldedGivenName(word: string): boolean {
  return GIVEN_NAME_SET.has(word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase());
}
export const WORDLIKE_NAME_WORDS = new TokenWordSet(WORDLIKE);
