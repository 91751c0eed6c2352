//! Pictures as pixels (`records::core::raster`): a board as PNG at the width asked, and a
//! record's replay as an animated PNG whose frames are the replay's positions, decoded here
//! with the png crate's own decoder.
#![cfg(feature = "raster")]

use rand::SeedableRng;
use rand::rngs::StdRng;
use records::core::Rules;
use records::core::raster::{self, Animation, RasterError};
use records::core::replay::{ReplayError, replay_with};
use records::core::rules::parts::*;
use records::games::GameKind;
use records::with_game;

/// The frames of a PNG (one for a still picture) as they show, RGB: each frame of an animation
/// drawn at its place over the one before (APNG's source blend, as the encoder writes them).
fn frames(png: &[u8]) -> ((u32, u32), Vec<Vec<u8>>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .unwrap();
    let info = reader.info();
    let size = (info.width, info.height);
    let count = info.animation_control.map_or(1, |a| a.num_frames);
    let mut canvas = vec![0u8; (size.0 * size.1 * 3) as usize];
    let mut out = Vec::new();
    for i in 0..count {
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut buf).unwrap();
        let (x, y) = match reader.info().frame_control() {
            Some(fc) => (fc.x_offset, fc.y_offset),
            None => (0, 0),
        };
        if i == 0 {
            assert_eq!(
                (frame.width, frame.height),
                size,
                "the first frame is the whole board"
            );
        }
        for row in 0..frame.height {
            let from = (row * frame.width * 3) as usize;
            let to = (((y + row) * size.0 + x) * 3) as usize;
            let n = (frame.width * 3) as usize;
            canvas[to..to + n].copy_from_slice(&buf[from..from + n]);
        }
        out.push(canvas.clone());
    }
    (size, out)
}

fn a_board_is_drawn_at_the_width_asked<G: Rules>() {
    let pos = G::start(&G::PRESETS[0].ruleset, None)
        .or_else(|_| {
            let mut rng = StdRng::seed_from_u64(1);
            let hidden = G::deal(&G::PRESETS[0].ruleset, &mut rng);
            G::start(&G::PRESETS[0].ruleset, Some(&hidden))
        })
        .unwrap();
    let svg = G::svg(&pos, None);
    for width in [64, 300, 1000] {
        let png = raster::png(&svg, Some(width)).unwrap();
        let ((w, h), frames) = frames(&png);
        assert_eq!(w, width, "{}", G::NAME);
        assert!(h > 0 && frames.len() == 1);
        // Not blank: the board's lines and pieces are ink on the white ground.
        let ink = frames[0]
            .chunks(3)
            .filter(|p| p.iter().any(|c| *c < 160))
            .count();
        assert!(
            ink > (w * h) as usize / 50,
            "{} at {width}: {ink} inked pixels",
            G::NAME
        );
    }
    for width in [0, 63, 2049] {
        assert!(matches!(
            raster::png(&svg, Some(width)),
            Err(RasterError::Width(e)) if e.0 == width
        ));
    }
}

#[test]
fn every_game_draws_a_png_at_the_width_asked() {
    for kind in GameKind::ALL {
        with_game!(*kind, G => a_board_is_drawn_at_the_width_asked::<G>());
    }
}

fn a_replay_animates_every_position<G: Rules>(seed: u64) {
    let record = records::core::play::random_record::<G>(&G::PRESETS[0], seed, 8);
    let plies = record.actions.len();
    let how = Animation {
        width: Some(200),
        ..Animation::default()
    };
    let apng = raster::replay_apng::<G>(&record, &how).unwrap();
    let (_, frames) = frames(&apng);
    assert_eq!(
        frames.len(),
        plies + 1,
        "{}: the start and one per ply",
        G::NAME
    );
    for (i, pair) in frames.windows(2).enumerate() {
        assert_ne!(
            pair[0],
            pair[1],
            "{}: ply {} changes the picture",
            G::NAME,
            i + 1
        );
    }
    // The last frame is the final position, its last action marked.
    let mut last = None;
    let verdict = replay_with::<G>(&record, |ply| {
        last = Some((ply.after.clone(), ply.action.clone()));
    });
    assert!(verdict.valid);
    let (pos, action) = last.unwrap();
    let still = raster::png(&G::svg(&pos, Some(&action)), Some(200)).unwrap();
    assert!(
        &self::frames(&still).1[0] == frames.last().unwrap(),
        "{}: the last frame is the final position",
        G::NAME
    );
}

#[test]
fn every_game_animates_a_replay_frame_by_frame() {
    for kind in GameKind::ALL {
        with_game!(*kind, G => a_replay_animates_every_position::<G>(7));
    }
}

#[test]
fn an_illegal_record_is_not_animated_and_says_which_ply() {
    use records::games::banqi::Banqi;
    let mut record = records::core::play::random_record::<Banqi>(&Banqi::PRESETS[0], 3, 6);
    record.actions.truncate(2);
    record.actions.push("z9".into());
    match raster::replay_apng::<Banqi>(&record, &Animation::default()) {
        Err(RasterError::Replay(ReplayError::IllegalPly { ply, action, .. })) => {
            assert_eq!((ply, action.as_str()), (3, "z9"));
        }
        other => panic!("expected a replay error, got {:?}", other.map(|b| b.len())),
    }
}

#[test]
fn an_animation_has_bounds() {
    use records::games::banqi::Banqi;
    let record = records::core::play::random_record::<Banqi>(&Banqi::PRESETS[0], 5, 10);
    let too_long = Animation {
        max_frames: 5,
        ..Animation::default()
    };
    assert!(matches!(
        raster::replay_apng::<Banqi>(&record, &too_long),
        Err(RasterError::TooManyFrames {
            frames: 11,
            max: 5,
            ..
        })
    ));
    let long = records::core::play::random_record::<Banqi>(&Banqi::PRESETS[0], 5, 60);
    let wide = Animation {
        width: Some(2048),
        ..Animation::default()
    };
    assert!(matches!(
        raster::replay_apng::<Banqi>(&long, &wide),
        Err(RasterError::TooLarge { width: 2048, .. })
    ));
    for frame_millis in [0, 99, 10_001] {
        let how = Animation {
            frame_millis,
            ..Animation::default()
        };
        assert!(matches!(
            raster::replay_apng::<Banqi>(&record, &how),
            Err(RasterError::FrameMillis(_))
        ));
    }
}
