// Printed numbers the screen shows but the view does not carry (display only; the server judges).
export const ADVISOR_INFO = {
  master_of_coin: { kind: "immediate", cp: 6 },
  archivist: { kind: "immediate", cp: 2 },
  goldsmith: { kind: "immediate", cp: 5 },
  carpenter: { kind: "immediate", cp: 1 },
  baker: { kind: "per_turn", cp: 3 },
  schoolmarm: { kind: "per_turn", cp: 3 },
  bailiff: { kind: "per_turn", cp: 5 },
  dressmaker: { kind: "per_turn", cp: 5 },
  landlord: { kind: "per_turn", cp: 3 },
  merchant: { kind: "per_turn", cp: 2 },
  chamberlain: { kind: "permanent", cp: 6 },
  scholar: { kind: "permanent", cp: 3 },
  mayoress: { kind: "permanent", cp: 5 },
  steward: { kind: "permanent", cp: 5 },
  abbess: { kind: "permanent", cp: 2 },
  toolmaker: { kind: "permanent", cp: 2 },
  sir_christiaan: { kind: "b", cp: 8 },
  lady_marie: { kind: "b", cp: 8 },
  sir_carl: { kind: "b", cp: 10 },
  lady_frida: { kind: "b", cp: 12 },
  sir_gustave: { kind: "b", bp: 12 },
  sir_antoni: { kind: "b", bp: 12 },
};

export const LOCATION_SYMBOL = {
  forest: "♣", grain_field: "⚘", quarry: "⬢", weaving_mill: "≋",
  castle: "♜", cathedral: "✝", construction_site: "⚒", market: "⚖",
};

export const COUNTRYSIDE = ["forest", "grain_field", "quarry", "weaving_mill"];
export const TOWN = ["castle", "cathedral", "construction_site", "market"];
export const RESOURCES = ["wood", "stone", "cloth", "grain"];
export const GOODS = ["bread", "book", "ring", "gold"];
export const VISIT_KINDS = [
  "harvest", "castle_gift", "castle_book", "cathedral_donation", "deliver_stone", "deliver_bread",
  "deliver_wood", "market_gold", "market_books", "cash_favor", "end_visit",
];
export const DECISION_KINDS = ["keep_favor", "event_option", "decline", "choose_resource", "place_councilor"];
export const BONUS_KINDS = ["raise_title", "hire_craftsman", "hire_advisor"];
