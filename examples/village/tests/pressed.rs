//! `InputFrame::pressed` and `Buttons::pressed` against the struct they fill: each `Button`
//! sets the field of its own name and no other, and a pressed frame is what the TypeScript
//! twin `inputFrame(pressed)` makes (16 ms, no look, no steer, no stamps).

use village::input::{Buttons, InputFrame};
use village::walk::Button;

/// The names of the fields set in `b`, read from its `Debug` output (`forward: true, ...`).
fn held(b: &Buttons) -> Vec<String> {
    let text = format!("{b:?}");
    let fields = text.trim_start_matches("Buttons {").trim_end_matches('}');
    let mut out = Vec::new();
    for field in fields.split(',') {
        let (name, value) = field.split_once(':').expect("a `name: value` field");
        if value.trim() == "true" {
            out.push(name.trim().to_string());
        }
    }
    out
}

#[test]
fn each_button_sets_the_field_of_its_name_alone() {
    let all_fields = format!("{:?}", Buttons::default())
        .matches(": false")
        .count();
    assert_eq!(
        Button::ALL.len(),
        all_fields,
        "one Button per field of Buttons"
    );
    for b in Button::ALL {
        let name = format!("{b:?}").to_lowercase();
        assert_eq!(held(&Buttons::pressed(&[b])), vec![name], "{b:?}");
    }
    let every = Buttons::pressed(&Button::ALL);
    assert_eq!(
        held(&every).len(),
        all_fields,
        "every button held: {every:?}"
    );
    assert_eq!(Buttons::pressed(&[]), Buttons::default());
    // Pressing one twice holds it once.
    assert_eq!(
        Buttons::pressed(&[Button::Jump, Button::Jump]),
        Buttons::pressed(&[Button::Jump])
    );
}

#[test]
fn a_pressed_frame_is_the_typescript_twins_default() {
    let f = InputFrame::pressed(&[Button::Forward, Button::Sprint]);
    assert_eq!(held(&f.buttons), ["forward", "sprint"]);
    assert_eq!(
        (f.dt, f.look, f.steer, f.view, f.ahead),
        (16, [0.0, 0.0], 0, None, None)
    );
    let g = f.clone().dt(17).yaw(0.25);
    assert_eq!((g.dt, g.look, g.buttons), (17, [0.25, 0.0], f.buttons));
}
