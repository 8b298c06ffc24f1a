/**
 * Collisions between cars: players' cars, AI traffic and parked cars, as discs of radius
 * `CAR_RADIUS` with momentum and one simple impulse per contact (restitution `RESTITUTION`).
 * The same code runs on the Worker and in a predicting client, so a client that knows where
 * the other cars were can repeat a collision exactly, and one that guesses wrong is corrected.
 *
 * A car moves along its heading (`speed` ≥ 0, no sliding): after an impulse its speed is the
 * new velocity's part along its heading, and the overlap is split between the two cars by
 * inverse mass. A mass of 0 is infinite (the car is not moved). Nothing here allocates: the
 * last contact is written to `contact`.
 */

/** A car's radius, metres: two cars touch when their centres are 3 m apart. */
export const CAR_RADIUS = 1.5;
/** Masses, kg: a player's car, an AI car (parked or driving). */
export const PLAYER_CAR_MASS = 1200;
export const AI_CAR_MASS = 1500;
/** The share of the closing speed that bounces back. */
export const RESTITUTION = 0.3;

/** What a collision reads of a car (a live body, or one from a rewound view). */
export interface CarLike {
  x: number;
  y: number;
  heading: number;
  speed: number;
}

/** The last contact `resolve` found: for the other car, its push (m) and its new speed along its heading. */
export const contact = { pushX: 0, pushY: 0, otherSpeed: 0 };

/**
 * Resolves a contact between `a` and `b` (masses `ma`, `mb`; 0 = infinite) on `a` alone: moves
 * `a` out by its share of the overlap and sets its speed after the impulse. What `b` should get
 * is left in `contact` (`applyOther`). Returns whether they touched.
 */
export function resolve(a: CarLike, ma: number, b: CarLike, mb: number): boolean {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const d2 = dx * dx + dy * dy;
  const reach = 2 * CAR_RADIUS;
  if (d2 >= reach * reach) return false;
  const ima = ma > 0 ? 1 / ma : 0;
  const imb = mb > 0 ? 1 / mb : 0;
  const im = ima + imb;
  if (im === 0) return false;
  const d = Math.sqrt(d2);
  // The normal from a to b; cars exactly on top of each other part along a's heading.
  const nx = d > 1e-9 ? dx / d : Math.cos(a.heading);
  const ny = d > 1e-9 ? dy / d : Math.sin(a.heading);
  const hax = Math.cos(a.heading);
  const hay = Math.sin(a.heading);
  const hbx = Math.cos(b.heading);
  const hby = Math.sin(b.heading);
  let vax = hax * a.speed;
  let vay = hay * a.speed;
  let vbx = hbx * b.speed;
  let vby = hby * b.speed;
  const closing = (vax - vbx) * nx + (vay - vby) * ny;
  if (closing > 0) {
    const j = ((1 + RESTITUTION) * closing) / im;
    vax -= j * ima * nx;
    vay -= j * ima * ny;
    vbx += j * imb * nx;
    vby += j * imb * ny;
  }
  const depth = reach - d;
  a.x -= nx * depth * (ima / im);
  a.y -= ny * depth * (ima / im);
  a.speed = Math.max(0, vax * hax + vay * hay);
  contact.pushX = nx * depth * (imb / im);
  contact.pushY = ny * depth * (imb / im);
  contact.otherSpeed = Math.max(0, vbx * hbx + vby * hby);
  return true;
}

/** Gives `b` its side of the last `resolve` (its push and its speed). */
export function applyOther(b: CarLike): void {
  b.x += contact.pushX;
  b.y += contact.pushY;
  b.speed = contact.otherSpeed;
}
