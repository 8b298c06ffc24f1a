//! Shared state through the delta tracker: one record without a key (`weather:state`, the
//! room's weather) sent to every client by its own `Tracker` over the same value. A late
//! joiner's first payload is the whole record (a keyframe); the others get only the fields
//! that changed, and nothing when nothing did. The TypeScript test `shared_state.test.ts`
//! checks the same bytes.

use tuplet::delta::{Mirror, Sent, Tracker};
use village::weather::{WeatherKind, WeatherState};

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn quantized(v: &WeatherState) -> WeatherState {
    tuplet::from_slice(&tuplet::to_vec(v).unwrap()).unwrap()
}

struct Client {
    tracker: Tracker<WeatherState>,
    mirror: Mirror<WeatherState>,
}

impl Client {
    fn new() -> Self {
        Client {
            tracker: Tracker::at_rate(20),
            mirror: Mirror::new(),
        }
    }

    /// Sends the shared value to this client: what was sent, and the payload's hex.
    fn tick(&mut self, weather: &WeatherState) -> (Sent, String) {
        let mut out = Vec::new();
        let sent = self.tracker.encode(weather, &mut out).unwrap();
        if sent != Sent::Nothing {
            assert_eq!(self.mirror.apply(&out).unwrap(), &quantized(weather));
        }
        (sent, hex(&out))
    }
}

#[test]
fn a_late_joiner_gets_the_whole_record_the_others_only_changes() {
    let mut weather = WeatherState {
        kind: WeatherKind::Cloudy,
        intensity: 0.4,
        wind_dir: 270.0,
        wind: 6.5,
        clouds: 70,
        fog_m: None,
    };
    let mut early = Client::new();
    assert_eq!(
        early.tick(&weather),
        (Sent::Keyframe, "97 00 c0 01 28 cd 0a 8c 41 46".to_string())
    );
    // Nothing changed: nothing to send.
    assert_eq!(early.tick(&weather), (Sent::Nothing, String::new()));
    // The wind picks up: only `wind` (bit 3) travels, as the difference of its wire int.
    weather.wind = 7.25;
    assert_eq!(
        early.tick(&weather),
        (Sent::Delta, "93 01 08 08".to_string())
    );
    // A late joiner gets the whole record, at its own sequence number.
    let mut late = Client::new();
    assert_eq!(
        late.tick(&weather),
        (Sent::Keyframe, "97 00 c0 01 28 cd 0a 8c 49 46".to_string())
    );
    // Fog rolls in: kind (bit 0, whole), intensity (bit 1, difference) and fog_m (bit 5,
    // whole), the same bytes for both clients apart from the sequence number.
    weather.kind = WeatherKind::Fog;
    weather.intensity = 0.9;
    weather.fog_m = Some(120);
    assert_eq!(
        early.tick(&weather),
        (Sent::Delta, "95 02 23 04 32 78".to_string())
    );
    assert_eq!(
        late.tick(&weather),
        (Sent::Delta, "95 01 23 04 32 78".to_string())
    );
    // It clears: fog_m back to none (nil).
    weather.fog_m = None;
    assert_eq!(
        early.tick(&weather),
        (Sent::Delta, "93 03 20 c0".to_string())
    );
    assert_eq!(early.mirror.value(), Some(&quantized(&weather)));
    assert_eq!(late.tick(&weather).0, Sent::Delta);
    assert_eq!(late.mirror.value(), Some(&quantized(&weather)));
}
