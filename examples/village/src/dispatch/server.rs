//! `ServerMessage`: every message the room sends (s2c), by id.

/// Everything the room may send to a client.
#[derive(Debug, Clone, PartialEq, tuplet::Dispatch)]
#[tuplet(dir = "s2c", reserved_ids = [11, 133], reserved_names = ["player:teleported", "birds:update"])]
pub enum ServerMessage {
    /// `player:move` (1).
    PlayerMoveRelayed(crate::player::PlayerMoveRelayed),
    /// `player:joined` (2).
    PlayerJoined(crate::player::PlayerJoined),
    /// `player:left` (3).
    PlayerLeft(crate::player::PlayerLeft),
    /// `player:correction` (4).
    PlayerCorrection(crate::player::PlayerCorrection),
    /// `player:rest` (6).
    PlayerRest(crate::player::PlayerRest),
    /// `player:profile` (7).
    ProfileCard(crate::player::ProfileCard),
    /// `player:roster` (8).
    PlayerRoster(crate::player::PlayerRoster),
    /// `player:identity` (10).
    PlayerIdentity(crate::player::PlayerIdentity),
    /// `chat:message` (30).
    ChatLine(crate::chat::ChatLine),
    /// `chat:whisper` (31).
    WhisperDelivered(crate::chat::WhisperDelivered),
    /// `chat:typing` (32).
    ChatTyping(crate::chat::ChatTyping),
    /// `chat:deleted` (33).
    ChatDeleted(crate::chat::ChatDeleted),
    /// `chat:muted` (34).
    ChatMuted(crate::chat::ChatMuted),
    /// `chat:history` (35).
    ChatHistory(crate::chat::ChatHistory),
    /// `chat:reactions` (37).
    ChatReactions(crate::chat::ChatReactions),
    /// `chat:system` (38).
    ChatSystem(crate::chat::ChatSystem),
    /// `session:welcome` (50).
    SessionWelcome(crate::session::SessionWelcome),
    /// `session:error` (51).
    SessionFailed(crate::session::SessionFailed),
    /// `session:kicked` (53).
    SessionKicked(crate::session::SessionKicked),
    /// `session:resumed` (55).
    SessionResumed(crate::session::SessionResumed),
    /// `diag:pong` (70).
    DiagPong(crate::diag::DiagPong),
    /// `diag:bytes` (72).
    DiagBytes(crate::diag::DiagBytes),
    /// `input:ack` (90).
    InputAck(crate::input::InputAck),
    /// `input:buffer` (91).
    InputBuffer(crate::input::InputBuffer),
    /// `world:snapshot` (110).
    WorldSnapshot(crate::world::WorldSnapshot),
    /// `world:clock` (112).
    WorldClock(crate::world::WorldClock),
    /// `birds:stream` (130).
    BirdStream(crate::birds::BirdStream),
    /// `birds:journal` (131).
    BirdJournal(crate::birds::BirdJournal),
    /// `birds:scatter` (132).
    BirdScatter(crate::birds::BirdScatter),
    /// `vehicle:seat` (150).
    VehicleSeat(crate::vehicle::VehicleSeat),
    /// `vehicle:move` (152).
    VehicleMoved(crate::vehicle::VehicleMoved),
    /// `vehicle:horn` (153).
    VehicleHorn(crate::vehicle::VehicleHorn),
    /// `vehicle:status` (154).
    VehicleStatus(crate::vehicle::VehicleStatus),
    /// `boat:launched` (170).
    BoatLaunched(crate::boat::BoatLaunched),
    /// `boat:sailing` (173).
    BoatSailing(crate::boat::BoatSailing),
    /// `boat:capsized` (175).
    BoatCapsized(crate::boat::BoatCapsized),
    /// `horse:rented` (190).
    HorseRented(crate::horse::HorseRented),
    /// `horse:gait` (191).
    HorseGaitShown(crate::horse::HorseGaitShown),
    /// `horse:refused` (193).
    HorseRefused(crate::horse::HorseRefused),
    /// `swim:medium` (210).
    SwimMedium(crate::swim::SwimMedium),
    /// `swim:breath` (211).
    SwimBreath(crate::swim::SwimBreath),
    /// `swim:found` (212).
    SwimFound(crate::swim::SwimFound),
    /// `swim:splash` (213).
    SwimSplash(crate::swim::SwimSplash),
    /// `fishing:cast` (230).
    FishingCastShown(crate::fishing::FishingCastShown),
    /// `fishing:bite` (231).
    FishingBite(crate::fishing::FishingBite),
    /// `fishing:catch` (233).
    FishingCatch(crate::fishing::FishingCatch),
    /// `fishing:lost` (234).
    FishingLost(crate::fishing::FishingLost),
    /// `fishing:records` (235).
    FishingRecords(crate::fishing::FishingRecords),
    /// `watergun:spray` (250).
    WatergunSprayShown(crate::watergun::WatergunSprayShown),
    /// `watergun:hit` (251).
    WatergunHit(crate::watergun::WatergunHit),
    /// `watergun:tank` (252).
    WatergunTank(crate::watergun::WatergunTank),
    /// `coins:spawn` (270).
    CoinsSpawn(crate::coins::CoinsSpawn),
    /// `coins:taken` (271).
    CoinsTaken(crate::coins::CoinsTaken),
    /// `coins:wallet` (272).
    CoinsWallet(crate::coins::CoinsWallet),
    /// `weather:change` (290).
    WeatherChange(crate::weather::WeatherChange),
    /// `weather:forecast` (292).
    WeatherForecast(crate::weather::WeatherForecast),
    /// `weather:lightning` (293).
    WeatherLightning(crate::weather::WeatherLightning),
    /// `weather:state` (294).
    WeatherState(crate::weather::WeatherState),
    /// `daynight:clock` (310).
    DayClock(crate::daynight::DayClock),
    /// `daynight:dusk` (311).
    DayDusk(crate::daynight::DayDusk),
    /// `daynight:lamps` (312).
    DayLamps(crate::daynight::DayLamps),
    /// `inventory:full` (330).
    InventoryFull(crate::inventory::InventoryFull),
    /// `inventory:slots` (331).
    InventorySlots(crate::inventory::InventorySlots),
    /// `inventory:overflow` (336).
    InventoryOverflow(crate::inventory::InventoryOverflow),
    /// `quest:offer` (350).
    QuestOffer(crate::quest::QuestOffer),
    /// `quest:progress` (352).
    QuestProgress(crate::quest::QuestProgress),
    /// `quest:journal` (354).
    QuestJournal(crate::quest::QuestJournal),
    /// `npc:line` (370).
    NpcLine(crate::npc::NpcLine),
    /// `npc:bye` (372).
    NpcBye(crate::npc::NpcBye),
    /// `npc:friendship` (374).
    NpcFriendship(crate::npc::NpcFriendship),
    /// `npc:bark` (375).
    NpcBark(crate::npc::NpcBark),
    /// `trade:invite` (390).
    TradeInvite(crate::trade::TradeInvite),
    /// `trade:window` (392).
    TradeWindow(crate::trade::TradeWindow),
    /// `housing:interior` (410).
    HousingInterior(crate::housing::HousingInterior),
    /// `housing:changed` (411).
    HousingChanged(crate::housing::HousingChanged),
    /// `housing:doorbell` (414).
    HousingDoorbellRung(crate::housing::HousingDoorbellRung),
    /// `pet:card` (430).
    PetCard(crate::pet::PetCard),
    /// `pet:react` (431).
    PetReact(crate::pet::PetReact),
    /// `minigame:lobby` (450).
    MinigameLobby(crate::minigames::MinigameLobby),
    /// `minigame:start` (451).
    MinigameStart(crate::minigames::MinigameStart),
    /// `minigame:results` (452).
    MinigameResults(crate::minigames::MinigameResults),
    /// `race:standings` (470).
    RaceStandings(crate::minigames::race::RaceStandings),
    /// `race:penalty` (471).
    RacePenalty(crate::minigames::race::RacePenalty),
    /// `race:ghost` (472).
    RaceGhost(crate::minigames::race::RaceGhost),
    /// `hideseek:role` (490).
    HideSeekRole(crate::minigames::hideseek::HideSeekRole),
    /// `hideseek:found` (491).
    HideSeekFound(crate::minigames::hideseek::HideSeekFound),
    /// `hideseek:hint` (492).
    HideSeekHint(crate::minigames::hideseek::HideSeekHint),
    /// `kickball:ball` (510).
    KickballBall(crate::minigames::kickball::KickballBall),
    /// `kickball:goal` (511).
    KickballGoal(crate::minigames::kickball::KickballGoal),
    /// `admin:result` (530).
    AdminResult(crate::admin::AdminResult),
    /// `admin:config` (532).
    AdminConfigTable(crate::admin::AdminConfigTable),
    /// `report:received` (550).
    ReportReceived(crate::moderation::ReportReceived),
    /// `moderation:blocked` (551).
    ModerationBlocked(crate::moderation::ModerationBlocked),
    /// `moderation:queue` (552).
    ModerationQueue(crate::moderation::ModerationQueue),
    /// `moderation:warning` (553).
    ModerationWarning(crate::moderation::ModerationWarning),
    /// `player:emote` (570).
    EmoteShown(crate::emote::EmoteShown),
    /// `emote:paired` (572).
    EmotePaired(crate::emote::EmotePaired),
    /// `emote:unlocked` (573).
    EmoteUnlocked(crate::emote::EmoteUnlocked),
    /// `photo:mode` (590).
    PhotoModeShown(crate::photo::PhotoModeShown),
    /// `photo:posted` (591).
    PhotoPosted(crate::photo::PhotoPosted),
    /// `music:notes` (610).
    MusicNotesHeard(crate::music::MusicNotesHeard),
    /// `music:jukebox` (611).
    MusicJukebox(crate::music::MusicJukebox),
    /// `fireworks:show` (630).
    FireworksShow(crate::fireworks::FireworksShow),
    /// `fireworks:schedule` (631).
    FireworksSchedule(crate::fireworks::FireworksSchedule),
    /// `fireworks:dud` (632).
    FireworksDud(crate::fireworks::FireworksDud),
    /// `friends:list` (650).
    FriendsList(crate::friends::FriendsList),
    /// `friends:presence` (653).
    FriendsPresence(crate::friends::FriendsPresence),
    /// `party:invited` (670).
    PartyInvited(crate::party::PartyInvited),
    /// `party:state` (671).
    PartyState(crate::party::PartyState),
    /// `party:ping` (674).
    PartyPing(crate::party::PartyPing),
    /// `mail:box` (690).
    MailBox(crate::mail::MailBox),
    /// `mail:letter` (691).
    MailLetter(crate::mail::MailLetter),
    /// `mail:arrived` (694).
    MailArrived(crate::mail::MailArrived),
    /// `achievement:unlocked` (710).
    AchievementUnlocked(crate::achievements::AchievementUnlocked),
    /// `achievement:progress` (711).
    AchievementProgress(crate::achievements::AchievementProgress),
    /// `achievement:list` (712).
    AchievementList(crate::achievements::AchievementList),
    /// `leaderboard:board` (730).
    LeaderboardBoard(crate::leaderboard::LeaderboardBoard),
    /// `leaderboard:ranked` (731).
    LeaderboardRanked(crate::leaderboard::LeaderboardRanked),
    /// `settings:sync` (750).
    SettingsSync(crate::settings::SettingsSync),
    /// `settings:conflict` (751).
    SettingsConflict(crate::settings::SettingsConflict),
    /// `tutorial:next` (770).
    TutorialNext(crate::tutorial::TutorialNext),
    /// `garden:plot` (790).
    GardenPlot(crate::garden::GardenPlot),
    /// `garden:harvest` (792).
    GardenHarvest(crate::garden::GardenHarvest),
    /// `cooking:curve` (810).
    CookingCurve(crate::cooking::CookingCurve),
    /// `cooking:done` (811).
    CookingDone(crate::cooking::CookingDone),
    /// `crafting:recipes` (830).
    CraftingRecipes(crate::crafting::CraftingRecipes),
    /// `crafting:queue` (831).
    CraftingQueue(crate::crafting::CraftingQueue),
    /// `shop:stock` (850).
    ShopStock(crate::shop::ShopStock),
    /// `shop:receipt` (851).
    ShopReceipt(crate::shop::ShopReceipt),
    /// `bank:account` (870).
    BankAccount(crate::bank::BankAccount),
    /// `bank:ledger` (871).
    BankLedger(crate::bank::BankLedger),
    /// `daily:offer` (890).
    DailyOffer(crate::daily::DailyOffer),
    /// `daily:claimed` (891).
    DailyClaimed(crate::daily::DailyClaimed),
    /// `calendar:month` (910).
    CalendarMonth(crate::calendar::CalendarMonth),
    /// `calendar:reminder` (912).
    CalendarReminder(crate::calendar::CalendarReminder),
    /// `voice:signal` (931).
    VoiceSignalRelayed(crate::voice::VoiceSignalRelayed),
    /// `voice:peers` (932).
    VoicePeers(crate::voice::VoicePeers),
    /// `voice:frames` (933).
    VoiceFrames(crate::voice::VoiceFrames),
    /// `camera:cutscene` (950).
    CameraCutscene(crate::camera::CameraCutscene),
    /// `markers:all` (970).
    MarkersAll(crate::markers::MarkersAll),
    /// `teleport:arrive` (990).
    TeleportArrive(crate::teleport::TeleportArrive),
    /// `teleport:unlocked` (991).
    TeleportUnlocked(crate::teleport::TeleportUnlocked),
    /// `seating:occupancy` (1010).
    SeatingOccupancy(crate::seating::SeatingOccupancy),
    /// `doors:state` (1030).
    DoorsState(crate::doors::DoorsState),
    /// `doors:knock` (1031).
    DoorsKnock(crate::doors::DoorsKnock),
    /// `effects:ground` (1050).
    EffectsGround(crate::effects::EffectsGround),
    /// `effects:rainbow` (1051).
    EffectsRainbow(crate::effects::EffectsRainbow),
    /// `effects:wet` (1052).
    EffectsWet(crate::effects::EffectsWet),
    /// `wardrobe:looks` (1070).
    WardrobeLooks(crate::wardrobe::WardrobeLooks),
    /// `treasure:result` (1090).
    TreasureResult(crate::collectibles::TreasureResult),
    /// `collectibles:book` (1091).
    CollectiblesBook(crate::collectibles::CollectiblesBook),
    /// `ferry:timetable` (1110).
    FerryTimetable(crate::ferry::FerryTimetable),
    /// `ferry:crossing` (1111).
    FerryCrossing(crate::ferry::FerryCrossing),
    /// `snowball:flight` (1130).
    SnowballFlight(crate::snowball::SnowballFlight),
    /// `snowball:hit` (1131).
    SnowballHit(crate::snowball::SnowballHit),
    /// `notice:show` (1150).
    NoticeShow(crate::notices::NoticeShow),
    /// `zones:enter` (1170).
    ZonesEnter(crate::zones::ZonesEnter),
    /// `zones:heat` (1171).
    ZonesHeat(crate::zones::ZonesHeat),
    /// `props:state` (1190).
    PropsState(crate::props::PropsState),
    /// `props:board` (1191).
    PropsBoard(crate::props::PropsBoard),
}
