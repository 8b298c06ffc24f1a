//! The derive and the loader agree (ARCHITECTURE.md, "Two front ends, one IR"):
//! for every tuplet type of the village crate, the per-item IR the derive emitted
//! (`<T as tuplet::Wire>::IR`, JSON) equals the one the source loader builds from the files.
//!
//! The list of types below is generated from the loader and kept complete by
//! `the_type_list_is_what_the_loader_finds`; after adding or removing a type, rerun with
//! `TUPLET_BLESS=1 cargo test -p tuplet-tests --test consistency` to rewrite it. Dispatch enums
//! carry no `Wire::IR` and are not listed; the loader checks them (coverage, directions).

use std::path::{Path, PathBuf};

use serde_json::Value;
use tuplet_schema::ir::ItemKind;
use tuplet_schema::load_items;

macro_rules! wire_types {
    ($($p:path),* $(,)?) => {
        /// (type path, the IR its derive emitted).
        const TYPES: &[(&str, &str)] = &[$((stringify!($p), <$p as tuplet::Wire>::IR)),*];
    };
}

const BEGIN: &str = "// BEGIN GENERATED: the tuplet types the loader finds";
const END: &str = "// END GENERATED";
/// The village crate's folder.
fn crate_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/village")
}

/// `village :: a :: B` as written in the list -> the loader's `crate::a::B`.
fn loader_path(listed: &str) -> String {
    let p = listed.replace(' ', "");
    format!("crate{}", p.strip_prefix("village").unwrap_or(&p))
}

#[test]
fn derive_ir_equals_loader_ir_for_every_type() {
    let loaded = load_items(&crate_dir()).unwrap_or_else(|e| panic!("{e}"));
    let mut mismatches = Vec::new();
    for (listed, ir) in TYPES {
        let path = loader_path(listed);
        // Compared as JSON values: `ir::Item` does not deserialize int ranges yet (i128
        // inside serde's internally tagged enums), so the typed comparison would fail on
        // the deserializer, not on a disagreement.
        let derived: Value = serde_json::from_str(ir)
            .unwrap_or_else(|e| panic!("{listed}: the derive's IR is not JSON: {e}"));
        let Some(loaded) = loaded.items.get(&path) else {
            mismatches.push(format!("{path}: not found by the loader"));
            continue;
        };
        let ours: Value = serde_json::to_value(&loaded.item).expect("IR serializes");
        if ours != derived {
            mismatches.push(format!(
                "{path}:\n  derive: {ir}\n  loader: {}",
                serde_json::to_string(&loaded.item).unwrap()
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} types differ:\n{}",
        mismatches.len(),
        TYPES.len(),
        mismatches.join("\n")
    );
    assert!(TYPES.len() >= 290, "{} types", TYPES.len());
}

#[test]
fn the_type_list_is_what_the_loader_finds() {
    let loaded = load_items(&crate_dir()).unwrap_or_else(|e| panic!("{e}"));
    let expected: Vec<String> = loaded
        .items
        .values()
        .filter(|li| !matches!(li.item.kind, ItemKind::Dispatch(_)))
        .map(|li| format!("village{}", li.path.strip_prefix("crate").unwrap()))
        .collect();
    let listed: Vec<String> = TYPES.iter().map(|(p, _)| p.replace(' ', "")).collect();
    if listed == expected {
        return;
    }
    let mut block = format!("{BEGIN}\nwire_types! {{\n");
    for p in &expected {
        block.push_str(&format!("    {p},\n"));
    }
    block.push_str(&format!("}}\n{END}\n"));
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/consistency.rs");
    if std::env::var_os("TUPLET_BLESS").is_some() {
        let text = std::fs::read_to_string(&file).unwrap();
        let start = text.rfind(BEGIN).expect("begin marker");
        let end = text.rfind(END).expect("end marker") + END.len() + 1;
        let text = format!("{}{block}{}", &text[..start], &text[end.min(text.len())..]);
        std::fs::write(&file, text).unwrap();
        return;
    }
    panic!(
        "the list of types is stale ({} listed, {} found by the loader); rerun with \
         TUPLET_BLESS=1, or paste:\n{block}",
        listed.len(),
        expected.len()
    );
}

// BEGIN GENERATED: the tuplet types the loader finds
wire_types! {
    village::achievements::AchievementList,
    village::achievements::AchievementListOpen,
    village::achievements::AchievementProgress,
    village::achievements::AchievementShowcase,
    village::achievements::AchievementUnlocked,
    village::achievements::Tier,
    village::admin::AdminAct,
    village::admin::AdminAction,
    village::admin::AdminConfig,
    village::admin::AdminConfigTable,
    village::admin::AdminMaintenance,
    village::admin::AdminResult,
    village::admin::AdminSpawn,
    village::bank::BankAccount,
    village::bank::BankLedger,
    village::bank::BankLedgerOpen,
    village::bank::BankTransfer,
    village::bank::BankVault,
    village::bank::LedgerEntry,
    village::birds::Bird,
    village::birds::BirdJournal,
    village::birds::BirdScatter,
    village::birds::BirdSpot,
    village::birds::BirdState,
    village::birds::BirdStream,
    village::birds::BirdSubscribe,
    village::birds::Species,
    village::boat::BoatCapsized,
    village::boat::BoatLaunch,
    village::boat::BoatLaunched,
    village::boat::BoatMoor,
    village::boat::BoatSailing,
    village::boat::BoatStroke,
    village::boat::BoatTrim,
    village::calendar::CalendarEvent,
    village::calendar::CalendarMonth,
    village::calendar::CalendarReminder,
    village::calendar::CalendarRsvp,
    village::calendar::EventKind,
    village::camera::CameraCutscene,
    village::camera::CameraDone,
    village::camera::CameraFollow,
    village::camera::Shot,
    village::chat::Channel,
    village::chat::ChannelMask,
    village::chat::ChatChannels,
    village::chat::ChatDeleted,
    village::chat::ChatHistory,
    village::chat::ChatLine,
    village::chat::ChatMuted,
    village::chat::ChatReact,
    village::chat::ChatReactions,
    village::chat::ChatSay,
    village::chat::ChatSystem,
    village::chat::ChatTyping,
    village::chat::HistoryLine,
    village::chat::WhisperDelivered,
    village::chat::WhisperSend,
    village::coins::CoinDrop,
    village::coins::CoinsPickup,
    village::coins::CoinsSpawn,
    village::coins::CoinsTaken,
    village::coins::CoinsTip,
    village::coins::CoinsWallet,
    village::collectibles::CollectiblesBook,
    village::collectibles::TreasureDig,
    village::collectibles::TreasureResult,
    village::common::ItemStack,
    village::common::Medium,
    village::common::PlayerRef,
    village::common::WorldPos,
    village::cooking::CookingCurve,
    village::cooking::CookingDone,
    village::cooking::CookingHeat,
    village::cooking::CookingStart,
    village::crafting::CraftingCancel,
    village::crafting::CraftingMake,
    village::crafting::CraftingQueue,
    village::crafting::CraftingRecipes,
    village::crafting::Recipe,
    village::daily::DailyClaim,
    village::daily::DailyClaimed,
    village::daily::DailyOffer,
    village::daynight::DayClock,
    village::daynight::DayDusk,
    village::daynight::DayLamps,
    village::daynight::DaySleep,
    village::daynight::MoonPhase,
    village::diag::DiagBytes,
    village::diag::DiagBytesRequest,
    village::diag::DiagFrames,
    village::diag::DiagPing,
    village::diag::DiagPong,
    village::diag::ServerStats,
    village::doors::DoorState,
    village::doors::DoorsKnock,
    village::doors::DoorsState,
    village::doors::DoorsUse,
    village::effects::EffectsGround,
    village::effects::EffectsRainbow,
    village::effects::EffectsWet,
    village::emote::Emote,
    village::emote::EmotePairOffer,
    village::emote::EmotePaired,
    village::emote::EmotePlay,
    village::emote::EmoteShown,
    village::emote::EmoteUnlocked,
    village::emote::EmoteWheel,
    village::ferry::Departure,
    village::ferry::FerryBoard,
    village::ferry::FerryCrossing,
    village::ferry::FerryTimetable,
    village::ferry::Pier,
    village::fireworks::Burst,
    village::fireworks::FireworksDud,
    village::fireworks::FireworksLaunch,
    village::fireworks::FireworksSchedule,
    village::fireworks::FireworksShow,
    village::fireworks::Shell,
    village::fishing::FishRecord,
    village::fishing::FishingBite,
    village::fishing::FishingCast,
    village::fishing::FishingCastShown,
    village::fishing::FishingCatch,
    village::fishing::FishingLost,
    village::fishing::FishingRecords,
    village::fishing::FishingReel,
    village::fishing::Water,
    village::friends::Friend,
    village::friends::FriendsAnswer,
    village::friends::FriendsList,
    village::friends::FriendsPresence,
    village::friends::FriendsRequest,
    village::friends::FriendsStatus,
    village::friends::Presence,
    village::garden::Bed,
    village::garden::GardenAction,
    village::garden::GardenHarvest,
    village::garden::GardenPlot,
    village::garden::GardenTend,
    village::garden::Stage,
    village::horse::Gait,
    village::horse::HorseGaitChange,
    village::horse::HorseGaitShown,
    village::horse::HorseGroom,
    village::horse::HorseRefused,
    village::horse::HorseRent,
    village::horse::HorseRented,
    village::housing::Furniture,
    village::housing::HousingChanged,
    village::housing::HousingDoorbell,
    village::housing::HousingDoorbellRung,
    village::housing::HousingInterior,
    village::housing::HousingPickup,
    village::housing::HousingPlace,
    village::housing::HousingVisitors,
    village::housing::Visitors,
    village::input::Buttons,
    village::input::InputAck,
    village::input::InputBatch,
    village::input::InputBuffer,
    village::input::InputFrame,
    village::inventory::InventoryDrop,
    village::inventory::InventoryFull,
    village::inventory::InventoryHotbar,
    village::inventory::InventoryMove,
    village::inventory::InventoryOverflow,
    village::inventory::InventorySlots,
    village::inventory::InventoryUse,
    village::inventory::Slot,
    village::leaderboard::Board,
    village::leaderboard::LeaderboardBoard,
    village::leaderboard::LeaderboardGet,
    village::leaderboard::LeaderboardRanked,
    village::leaderboard::RankRow,
    village::mail::Letter,
    village::mail::MailArrived,
    village::mail::MailBox,
    village::mail::MailCollect,
    village::mail::MailLetter,
    village::mail::MailOpen,
    village::mail::MailSend,
    village::markers::Icon,
    village::markers::Marker,
    village::markers::MarkersAll,
    village::markers::MarkersPut,
    village::markers::MarkersRemove,
    village::minigames::Game,
    village::minigames::MinigameForfeit,
    village::minigames::MinigameLobby,
    village::minigames::MinigameQueue,
    village::minigames::MinigameResults,
    village::minigames::MinigameStart,
    village::minigames::Placing,
    village::minigames::hideseek::HideSeekFound,
    village::minigames::hideseek::HideSeekHint,
    village::minigames::hideseek::HideSeekRole,
    village::minigames::hideseek::HideSeekTag,
    village::minigames::hideseek::HideSeekTaunt,
    village::minigames::hideseek::Role,
    village::minigames::kickball::KickballBall,
    village::minigames::kickball::KickballGoal,
    village::minigames::kickball::KickballKick,
    village::minigames::kickball::KickballTeam,
    village::minigames::race::RaceCheckpoint,
    village::minigames::race::RaceGhost,
    village::minigames::race::RaceGhostUpload,
    village::minigames::race::RacePenalty,
    village::minigames::race::RaceStandings,
    village::moderation::ModerationAck,
    village::moderation::ModerationBlock,
    village::moderation::ModerationBlocked,
    village::moderation::ModerationQueue,
    village::moderation::ModerationWarning,
    village::moderation::QueueItem,
    village::moderation::ReportCategory,
    village::moderation::ReportReceived,
    village::moderation::ReportSubmit,
    village::music::Instrument,
    village::music::MusicJukebox,
    village::music::MusicMix,
    village::music::MusicNotes,
    village::music::MusicNotesHeard,
    village::music::MusicQueue,
    village::notices::Level,
    village::notices::NoticeBody,
    village::notices::NoticeBroadcast,
    village::notices::NoticeDismiss,
    village::notices::NoticeShow,
    village::npc::Mood,
    village::npc::NpcBark,
    village::npc::NpcBye,
    village::npc::NpcChoose,
    village::npc::NpcFriendship,
    village::npc::NpcGift,
    village::npc::NpcLine,
    village::npc::NpcTalk,
    village::party::Member,
    village::party::PartyInvite,
    village::party::PartyInvited,
    village::party::PartyJoin,
    village::party::PartyLeave,
    village::party::PartyPing,
    village::party::PartyPromote,
    village::party::PartyState,
    village::pet::PetAdopt,
    village::pet::PetCard,
    village::pet::PetCommand,
    village::pet::PetFeed,
    village::pet::PetKind,
    village::pet::PetOrder,
    village::pet::PetReact,
    village::pet::PetSummon,
    village::photo::PhotoFilter,
    village::photo::PhotoLens,
    village::photo::PhotoLike,
    village::photo::PhotoMode,
    village::photo::PhotoModeShown,
    village::photo::PhotoPosted,
    village::photo::PhotoShare,
    village::player::LeaveReason,
    village::player::MoveFlags,
    village::player::PlayerCorrection,
    village::player::PlayerHeartbeat,
    village::player::PlayerIdentity,
    village::player::PlayerJoin,
    village::player::PlayerJoined,
    village::player::PlayerLeft,
    village::player::PlayerMove,
    village::player::PlayerMoveRelayed,
    village::player::PlayerRename,
    village::player::PlayerRest,
    village::player::PlayerRoster,
    village::player::ProfileCard,
    village::player::ProfileRequest,
    village::player::RejectReason,
    village::player::RosterEntry,
    village::props::BoardNote,
    village::props::PropsBoard,
    village::props::PropsNote,
    village::props::PropsState,
    village::props::PropsUse,
    village::quest::Objective,
    village::quest::QuestAnswer,
    village::quest::QuestJournal,
    village::quest::QuestOffer,
    village::quest::QuestProgress,
    village::quest::QuestState,
    village::quest::QuestTrack,
    village::quest::QuestTurnIn,
    village::seating::SeatingBlanket,
    village::seating::SeatingOccupancy,
    village::seating::SeatingSit,
    village::session::RevokeReason,
    village::session::SessionError,
    village::session::SessionFailed,
    village::session::SessionHello,
    village::session::SessionKicked,
    village::session::SessionLeave,
    village::session::SessionResumed,
    village::session::SessionToken,
    village::session::SessionWelcome,
    village::settings::Comfort,
    village::settings::Prefs,
    village::settings::SettingsConflict,
    village::settings::SettingsSave,
    village::settings::SettingsSync,
    village::shop::ShopBuy,
    village::shop::ShopOpen,
    village::shop::ShopReceipt,
    village::shop::ShopRefusal,
    village::shop::ShopSell,
    village::shop::ShopStock,
    village::shop::StockLine,
    village::snowball::SnowballFlight,
    village::snowball::SnowballHit,
    village::snowball::SnowballRoll,
    village::snowball::SnowballThrow,
    village::swim::SwimBreath,
    village::swim::SwimDive,
    village::swim::SwimFound,
    village::swim::SwimMedium,
    village::swim::SwimPickup,
    village::swim::SwimSplash,
    village::teleport::TeleportArrive,
    village::teleport::TeleportRefusal,
    village::teleport::TeleportTravel,
    village::teleport::TeleportUnlocked,
    village::trade::TradeCancel,
    village::trade::TradeConfirm,
    village::trade::TradeInvite,
    village::trade::TradeOffer,
    village::trade::TradeRequest,
    village::trade::TradeRespond,
    village::trade::TradeStage,
    village::trade::TradeWindow,
    village::tutorial::TutorialNext,
    village::tutorial::TutorialSkip,
    village::tutorial::TutorialStep,
    village::vehicle::Seat,
    village::vehicle::VehicleAction,
    village::vehicle::VehicleCommand,
    village::vehicle::VehicleDrive,
    village::vehicle::VehicleEnter,
    village::vehicle::VehicleExit,
    village::vehicle::VehicleHorn,
    village::vehicle::VehicleMoved,
    village::vehicle::VehicleSeat,
    village::vehicle::VehicleStatus,
    village::voice::Signal,
    village::voice::SignalKind,
    village::voice::VoiceEnable,
    village::voice::VoiceFrames,
    village::voice::VoicePeers,
    village::voice::VoiceSignal,
    village::voice::VoiceSignalRelayed,
    village::wardrobe::WardrobeLooks,
    village::wardrobe::WardrobeWear,
    village::wardrobe::WearSlot,
    village::wardrobe::Worn,
    village::watergun::WatergunHit,
    village::watergun::WatergunRefill,
    village::watergun::WatergunSpray,
    village::watergun::WatergunSprayShown,
    village::watergun::WatergunTank,
    village::weather::ForecastSlot,
    village::weather::WeatherChange,
    village::weather::WeatherForecast,
    village::weather::WeatherForecastOpen,
    village::weather::WeatherKind,
    village::weather::WeatherLightning,
    village::weather::WeatherSet,
    village::weather::WeatherState,
    village::world::EntityKind,
    village::world::NearbyEntity,
    village::world::WorldAck,
    village::world::WorldClock,
    village::world::WorldKeyframeRequest,
    village::world::WorldSnapshot,
    village::world::WorldView,
    village::zones::ZoneRules,
    village::zones::ZonesEnter,
    village::zones::ZonesHeat,
    village::zones::ZonesMap,
}
// END GENERATED
