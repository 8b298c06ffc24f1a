//! The dispatch enums: every message of each direction, by id. Messages sent both ways
//! appear in both. Removed ids and names stay reserved here so they are never reused.

/// Everything a client may send to the room.
#[derive(Debug, Clone, PartialEq, tuplet::Dispatch)]
#[tuplet(dir = "c2s", reserved_ids = [11, 133], reserved_names = ["player:teleport", "birds:request"])]
pub enum ClientMessage {
    /// `player:move` (1).
    PlayerMove(crate::player::PlayerMove),
    /// `player:join` (2).
    PlayerJoin(crate::player::PlayerJoin),
    /// `player:heartbeat` (5).
    PlayerHeartbeat(crate::player::PlayerHeartbeat),
    /// `player:profile` (7).
    ProfileRequest(crate::player::ProfileRequest),
    /// `player:rename` (9).
    PlayerRename(crate::player::PlayerRename),
    /// `chat:message` (30).
    ChatSay(crate::chat::ChatSay),
    /// `chat:whisper` (31).
    WhisperSend(crate::chat::WhisperSend),
    /// `chat:typing` (32).
    ChatTyping(crate::chat::ChatTyping),
    /// `chat:react` (36).
    ChatReact(crate::chat::ChatReact),
    /// `chat:channels` (39).
    ChatChannels(crate::chat::ChatChannels),
    /// `session:hello` (50).
    SessionHello(crate::session::SessionHello),
    /// `session:token` (52).
    SessionToken(crate::session::SessionToken),
    /// `session:leave` (54).
    SessionLeave(crate::session::SessionLeave),
    /// `diag:ping` (70).
    DiagPing(crate::diag::DiagPing),
    /// `diag:frames` (71).
    DiagFrames(crate::diag::DiagFrames),
    /// `diag:bytes` (72).
    DiagBytesRequest(crate::diag::DiagBytesRequest),
    /// `input:batch` (90).
    InputBatch(crate::input::InputBatch),
    /// `world:keyframe` (110).
    WorldKeyframeRequest(crate::world::WorldKeyframeRequest),
    /// `world:view` (111).
    WorldView(crate::world::WorldView),
    /// `world:ack` (112).
    WorldAck(crate::world::WorldAck),
    /// `birds:subscribe` (130).
    BirdSubscribe(crate::birds::BirdSubscribe),
    /// `birds:spot` (131).
    BirdSpot(crate::birds::BirdSpot),
    /// `vehicle:enter` (150).
    VehicleEnter(crate::vehicle::VehicleEnter),
    /// `vehicle:exit` (151).
    VehicleExit(crate::vehicle::VehicleExit),
    /// `vehicle:move` (152).
    VehicleDrive(crate::vehicle::VehicleDrive),
    /// `vehicle:horn` (153).
    VehicleHorn(crate::vehicle::VehicleHorn),
    /// `vehicle:command` (155).
    VehicleCommand(crate::vehicle::VehicleCommand),
    /// `boat:launch` (170).
    BoatLaunch(crate::boat::BoatLaunch),
    /// `boat:stroke` (171).
    BoatStroke(crate::boat::BoatStroke),
    /// `boat:trim` (172).
    BoatTrim(crate::boat::BoatTrim),
    /// `boat:moor` (174).
    BoatMoor(crate::boat::BoatMoor),
    /// `horse:rent` (190).
    HorseRent(crate::horse::HorseRent),
    /// `horse:gait` (191).
    HorseGaitChange(crate::horse::HorseGaitChange),
    /// `horse:groom` (192).
    HorseGroom(crate::horse::HorseGroom),
    /// `swim:dive` (211).
    SwimDive(crate::swim::SwimDive),
    /// `swim:pickup` (212).
    SwimPickup(crate::swim::SwimPickup),
    /// `fishing:cast` (230).
    FishingCast(crate::fishing::FishingCast),
    /// `fishing:reel` (232).
    FishingReel(crate::fishing::FishingReel),
    /// `watergun:spray` (250).
    WatergunSpray(crate::watergun::WatergunSpray),
    /// `watergun:refill` (252).
    WatergunRefill(crate::watergun::WatergunRefill),
    /// `coins:pickup` (271).
    CoinsPickup(crate::coins::CoinsPickup),
    /// `coins:tip` (273).
    CoinsTip(crate::coins::CoinsTip),
    /// `weather:set` (291).
    WeatherSet(crate::weather::WeatherSet),
    /// `weather:forecast` (292).
    WeatherForecastOpen(crate::weather::WeatherForecastOpen),
    /// `daynight:sleep` (313).
    DaySleep(crate::daynight::DaySleep),
    /// `inventory:move` (332).
    InventoryMove(crate::inventory::InventoryMove),
    /// `inventory:drop` (333).
    InventoryDrop(crate::inventory::InventoryDrop),
    /// `inventory:use` (334).
    InventoryUse(crate::inventory::InventoryUse),
    /// `inventory:hotbar` (335).
    InventoryHotbar(crate::inventory::InventoryHotbar),
    /// `quest:answer` (351).
    QuestAnswer(crate::quest::QuestAnswer),
    /// `quest:turnin` (353).
    QuestTurnIn(crate::quest::QuestTurnIn),
    /// `quest:track` (355).
    QuestTrack(crate::quest::QuestTrack),
    /// `npc:talk` (370).
    NpcTalk(crate::npc::NpcTalk),
    /// `npc:choose` (371).
    NpcChoose(crate::npc::NpcChoose),
    /// `npc:bye` (372).
    NpcBye(crate::npc::NpcBye),
    /// `npc:gift` (373).
    NpcGift(crate::npc::NpcGift),
    /// `trade:request` (390).
    TradeRequest(crate::trade::TradeRequest),
    /// `trade:respond` (391).
    TradeRespond(crate::trade::TradeRespond),
    /// `trade:offer` (392).
    TradeOffer(crate::trade::TradeOffer),
    /// `trade:confirm` (393).
    TradeConfirm(crate::trade::TradeConfirm),
    /// `trade:cancel` (394).
    TradeCancel(crate::trade::TradeCancel),
    /// `housing:place` (411).
    HousingPlace(crate::housing::HousingPlace),
    /// `housing:pickup` (412).
    HousingPickup(crate::housing::HousingPickup),
    /// `housing:visitors` (413).
    HousingVisitors(crate::housing::HousingVisitors),
    /// `housing:doorbell` (414).
    HousingDoorbell(crate::housing::HousingDoorbell),
    /// `pet:adopt` (430).
    PetAdopt(crate::pet::PetAdopt),
    /// `pet:command` (431).
    PetOrder(crate::pet::PetOrder),
    /// `pet:summon` (432).
    PetSummon(crate::pet::PetSummon),
    /// `pet:feed` (433).
    PetFeed(crate::pet::PetFeed),
    /// `minigame:queue` (450).
    MinigameQueue(crate::minigames::MinigameQueue),
    /// `minigame:forfeit` (453).
    MinigameForfeit(crate::minigames::MinigameForfeit),
    /// `race:checkpoint` (470).
    RaceCheckpoint(crate::minigames::race::RaceCheckpoint),
    /// `race:ghost` (472).
    RaceGhostUpload(crate::minigames::race::RaceGhostUpload),
    /// `hideseek:tag` (491).
    HideSeekTag(crate::minigames::hideseek::HideSeekTag),
    /// `hideseek:taunt` (493).
    HideSeekTaunt(crate::minigames::hideseek::HideSeekTaunt),
    /// `kickball:kick` (510).
    KickballKick(crate::minigames::kickball::KickballKick),
    /// `kickball:team` (512).
    KickballTeam(crate::minigames::kickball::KickballTeam),
    /// `admin:act` (530).
    AdminAct(crate::admin::AdminAct),
    /// `admin:maintenance` (531).
    AdminMaintenance(crate::admin::AdminMaintenance),
    /// `admin:config` (532).
    AdminConfig(crate::admin::AdminConfig),
    /// `admin:spawn` (533).
    AdminSpawn(crate::admin::AdminSpawn),
    /// `report:submit` (550).
    ReportSubmit(crate::moderation::ReportSubmit),
    /// `moderation:block` (551).
    ModerationBlock(crate::moderation::ModerationBlock),
    /// `moderation:ack` (554).
    ModerationAck(crate::moderation::ModerationAck),
    /// `player:emote` (570).
    EmotePlay(crate::emote::EmotePlay),
    /// `emote:wheel` (571).
    EmoteWheel(crate::emote::EmoteWheel),
    /// `emote:pair` (572).
    EmotePairOffer(crate::emote::EmotePairOffer),
    /// `photo:mode` (590).
    PhotoMode(crate::photo::PhotoMode),
    /// `photo:share` (591).
    PhotoShare(crate::photo::PhotoShare),
    /// `photo:like` (592).
    PhotoLike(crate::photo::PhotoLike),
    /// `photo:lens` (593).
    PhotoLens(crate::photo::PhotoLens),
    /// `music:notes` (610).
    MusicNotes(crate::music::MusicNotes),
    /// `music:queue` (611).
    MusicQueue(crate::music::MusicQueue),
    /// `music:mix` (612).
    MusicMix(crate::music::MusicMix),
    /// `fireworks:launch` (630).
    FireworksLaunch(crate::fireworks::FireworksLaunch),
    /// `friends:request` (651).
    FriendsRequest(crate::friends::FriendsRequest),
    /// `friends:answer` (652).
    FriendsAnswer(crate::friends::FriendsAnswer),
    /// `friends:status` (654).
    FriendsStatus(crate::friends::FriendsStatus),
    /// `party:invite` (670).
    PartyInvite(crate::party::PartyInvite),
    /// `party:join` (671).
    PartyJoin(crate::party::PartyJoin),
    /// `party:leave` (672).
    PartyLeave(crate::party::PartyLeave),
    /// `party:promote` (673).
    PartyPromote(crate::party::PartyPromote),
    /// `party:ping` (674).
    PartyPing(crate::party::PartyPing),
    /// `mail:open` (690).
    MailOpen(crate::mail::MailOpen),
    /// `mail:send` (692).
    MailSend(crate::mail::MailSend),
    /// `mail:collect` (693).
    MailCollect(crate::mail::MailCollect),
    /// `achievement:list` (712).
    AchievementListOpen(crate::achievements::AchievementListOpen),
    /// `achievement:showcase` (713).
    AchievementShowcase(crate::achievements::AchievementShowcase),
    /// `leaderboard:get` (730).
    LeaderboardGet(crate::leaderboard::LeaderboardGet),
    /// `settings:save` (750).
    SettingsSave(crate::settings::SettingsSave),
    /// `tutorial:step` (770).
    TutorialStep(crate::tutorial::TutorialStep),
    /// `tutorial:skip` (771).
    TutorialSkip(crate::tutorial::TutorialSkip),
    /// `garden:tend` (791).
    GardenTend(crate::garden::GardenTend),
    /// `cooking:start` (810).
    CookingStart(crate::cooking::CookingStart),
    /// `cooking:heat` (811).
    CookingHeat(crate::cooking::CookingHeat),
    /// `crafting:make` (831).
    CraftingMake(crate::crafting::CraftingMake),
    /// `crafting:cancel` (832).
    CraftingCancel(crate::crafting::CraftingCancel),
    /// `shop:open` (850).
    ShopOpen(crate::shop::ShopOpen),
    /// `shop:buy` (851).
    ShopBuy(crate::shop::ShopBuy),
    /// `shop:sell` (852).
    ShopSell(crate::shop::ShopSell),
    /// `bank:transfer` (870).
    BankTransfer(crate::bank::BankTransfer),
    /// `bank:ledger` (871).
    BankLedgerOpen(crate::bank::BankLedgerOpen),
    /// `bank:vault` (872).
    BankVault(crate::bank::BankVault),
    /// `daily:claim` (891).
    DailyClaim(crate::daily::DailyClaim),
    /// `calendar:rsvp` (911).
    CalendarRsvp(crate::calendar::CalendarRsvp),
    /// `voice:enable` (930).
    VoiceEnable(crate::voice::VoiceEnable),
    /// `voice:signal` (931).
    VoiceSignal(crate::voice::VoiceSignal),
    /// `voice:frames` (933).
    VoiceFrames(crate::voice::VoiceFrames),
    /// `camera:done` (950).
    CameraDone(crate::camera::CameraDone),
    /// `camera:follow` (951).
    CameraFollow(crate::camera::CameraFollow),
    /// `markers:put` (970).
    MarkersPut(crate::markers::MarkersPut),
    /// `markers:remove` (971).
    MarkersRemove(crate::markers::MarkersRemove),
    /// `teleport:travel` (990).
    TeleportTravel(crate::teleport::TeleportTravel),
    /// `seating:sit` (1010).
    SeatingSit(crate::seating::SeatingSit),
    /// `seating:blanket` (1011).
    SeatingBlanket(crate::seating::SeatingBlanket),
    /// `doors:use` (1030).
    DoorsUse(crate::doors::DoorsUse),
    /// `wardrobe:wear` (1070).
    WardrobeWear(crate::wardrobe::WardrobeWear),
    /// `treasure:dig` (1090).
    TreasureDig(crate::collectibles::TreasureDig),
    /// `ferry:board` (1110).
    FerryBoard(crate::ferry::FerryBoard),
    /// `snowball:throw` (1130).
    SnowballThrow(crate::snowball::SnowballThrow),
    /// `snowball:roll` (1132).
    SnowballRoll(crate::snowball::SnowballRoll),
    /// `notice:dismiss` (1150).
    NoticeDismiss(crate::notices::NoticeDismiss),
    /// `notice:broadcast` (1151).
    NoticeBroadcast(crate::notices::NoticeBroadcast),
    /// `zones:map` (1171).
    ZonesMap(crate::zones::ZonesMap),
    /// `props:use` (1190).
    PropsUse(crate::props::PropsUse),
    /// `props:note` (1191).
    PropsNote(crate::props::PropsNote),
}

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
