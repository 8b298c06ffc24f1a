//! `ClientMessage`: every message a client sends (c2s), by id.

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
