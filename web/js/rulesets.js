// Each ruleset's panel lives in its own module; a new ruleset adds a line here.
// A ruleset the client has no module for is still playable through the generic panel,
// which lists the legal actions as buttons.

const MODULES = {
  morne_plaine: { title: 'Morne Plaine', blurb: 'Napoleonic grand tactics: zones of control, cavalry charges, supports and morale.', load: () => import('./morne_plaine.js') },
  jomini: { title: 'Jomini', blurb: 'Napoleonic brigades: officers activate nearby units, order tokens buy manoeuvres.', load: () => import('./jomini.js') },
  skirmish: { title: 'Futile Kingdoms', blurb: 'Man-to-man skirmish: facing, reactions to every step, charges and melee.', load: () => import('./skirmish.js') },
  battle_cry: { title: 'Battle Cry', blurb: 'American Civil War with command cards: order units in a section, roll battle dice.', load: () => import('./battle_cry.js') },
};

export function rulesetTitle(name) {
  return (MODULES[name] && MODULES[name].title) || String(name).replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

export function rulesetBlurb(name) {
  return (MODULES[name] && MODULES[name].blurb) || '';
}

/** The ruleset's panel module (its default export). */
export async function loadRuleset(name) {
  const m = MODULES[name] ? await MODULES[name].load() : await import('./generic.js');
  return m.default;
}
