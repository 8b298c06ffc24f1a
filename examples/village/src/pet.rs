//! Pets: adopting, naming, commands, tricks, feeding. Pets also appear as entities in
//! `world:snapshot`. Ids 430–449.

/// Kinds of pet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
#[tuplet(reserved = [3])]
pub enum PetKind {
    /// Dog.
    Dog = 1,
    /// Cat.
    Cat = 2,
    /// Rabbit.
    Rabbit = 4,
    /// Duck.
    Duck = 5,
    /// Fox (event reward).
    Fox = 6,
}

/// A command given to a pet. Some carry data.
#[derive(Debug, Clone, PartialEq, tuplet::Enum)]
pub enum PetCommand {
    /// Follow the owner.
    #[tuplet(tag = 1)]
    Follow,
    /// Stay here.
    #[tuplet(tag = 2)]
    Stay,
    /// Go to a point.
    #[tuplet(tag = 3)]
    GoTo(crate::common::WorldPos),
    /// Fetch a thrown stick.
    #[tuplet(tag = 4)]
    Fetch {
        /// The stick's ground item id.
        stick: u32,
        /// Throw strength, 0..1.
        #[tuplet(quant = "percent", range(0.0, 1.0))]
        strength: f32,
    },
    /// Perform a learnt trick.
    #[tuplet(tag = 5)]
    Trick(u8),
}

/// Sent by a client adopting a pet at the shelter.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "pet:adopt", id = 430, dir = "c2s")]
pub struct PetAdopt {
    /// Which kind.
    pub kind: PetKind,
    /// Its name.
    #[tuplet(len(min = 1, max = 16))]
    pub name: String,
    /// Fur or feather colour, 0xRRGGBB.
    #[tuplet(range(0, 0xFFFFFF))]
    pub colour: u32,
}

/// The owner's pet card: sent on adopt and on join.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "pet:card", id = 430, dir = "s2c")]
pub struct PetCard {
    /// Entity id when out; absent when at home.
    pub entity: Option<u32>,
    /// Kind.
    pub kind: PetKind,
    /// Name.
    #[tuplet(len(min = 1, max = 16))]
    pub name: String,
    /// Hunger, 0..1.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub hunger: f32,
    /// Tricks learnt, by index.
    #[tuplet(len(max = 16))]
    pub tricks: Vec<u8>,
    /// Age in game days.
    pub age_days: u16,
}

/// Sent by the owner commanding its pet.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "pet:command", id = 431, dir = "c2s")]
pub struct PetOrder {
    /// The command.
    pub command: PetCommand,
}

/// Relayed to nearby players so the pet's reaction shows (a bark, a sulk).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "pet:react", id = 431, dir = "s2c")]
pub struct PetReact {
    /// The pet entity.
    pub entity: u32,
    /// Reaction animation key.
    #[tuplet(len(min = 1, max = 24))]
    pub anim: String,
    /// Whether it obeyed.
    pub obeyed: bool,
}

/// Sent by a client summoning or sending home its pet.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "pet:summon", id = 432, dir = "c2s")]
pub struct PetSummon {
    /// Out (true) or home.
    pub out: bool,
}

/// Sent by a client feeding the pet from the backpack.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "pet:feed", id = 433, dir = "c2s")]
pub struct PetFeed {
    /// Backpack slot of the food.
    #[tuplet(range(0, 47))]
    pub slot: u8,
}
