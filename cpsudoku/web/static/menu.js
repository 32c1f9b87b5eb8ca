// The New-puzzle menu, built from GET /api/generate/options: it lists only the sizes,
// variants, difficulties and symmetries the server measured to make a puzzle in time.
// Each choice narrows the next (size -> variant -> difficulty -> symmetry), keeping the
// player's earlier pick when it is still on offer.

import { call } from "./api.js";

const SYMMETRY_NAMES = { none: "no symmetry", rot180: "rotational (180°)", rot90: "rotational (90°)" };
const DIFFICULTY_NAMES = { "": "any difficulty" };

export class Menu {
  // selects: {size, variant, difficulty, symmetry} <select> elements.
  constructor(selects) {
    this.selects = selects;
    this.options = null;
    for (const [key, next] of [["size", "variant"], ["variant", "difficulty"], ["difficulty", "symmetry"]]) {
      selects[key].addEventListener("change", () => this.refill(next));
    }
  }

  // Fetches the options and fills the menu; false when the server cannot say.
  async load() {
    try {
      this.options = await call("/api/generate/options");
    } catch {
      this.options = null;
    }
    const ok = !!(this.options && this.options.choices.length);
    for (const select of Object.values(this.selects)) select.disabled = !ok;
    if (ok) {
      fill(this.selects.size, this.options.sizes.map((s) => [String(s), `${s}x${s}`]), "9");
      this.refill("variant");
    }
    return ok;
  }

  // The choices for the current size (and variant), as [value, label] pairs.
  choices(key) {
    const size = Number(this.selects.size.value);
    const ofSize = this.options.choices.filter((c) => c.size === size);
    if (key === "variant") return ofSize.map((c) => [c.variant, c.variant]);
    const chosen = ofSize.find((c) => c.variant === this.selects.variant.value);
    const difficulties = chosen ? chosen.difficulties : [];
    if (key === "difficulty") {
      return difficulties.map((d) => [d.difficulty, DIFFICULTY_NAMES[d.difficulty] ?? d.difficulty]);
    }
    const picked = difficulties.find((d) => d.difficulty === this.selects.difficulty.value);
    return (picked ? picked.symmetries : []).map((s) => [s, SYMMETRY_NAMES[s] ?? s]);
  }

  // Refills one select and those after it.
  refill(key) {
    const order = ["variant", "difficulty", "symmetry"];
    for (const k of order.slice(order.indexOf(key))) fill(this.selects[k], this.choices(k));
  }

  // The body /api/generate takes for the current choice.
  body() {
    const s = this.selects;
    return { size: Number(s.size.value), variant: s.variant.value,
      difficulty: s.difficulty.value || null, symmetry: s.symmetry.value };
  }
}

function fill(select, pairs, preferred = undefined) {
  const keep = select.value;
  select.replaceChildren();
  for (const [value, label] of pairs) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = label;
    select.appendChild(option);
  }
  const values = pairs.map(([value]) => value);
  if (values.includes(keep)) select.value = keep;
  else if (preferred !== undefined && values.includes(preferred)) select.value = preferred;
}
