//! `generate`: composes the programs of `benchmarks/programs` into large programs
//! (`benchmarks/generated/gen-SIZE.horef` and `gen-SIZE-e.horef`), deterministically, and
//! checks that each one parses and type-checks.

use anyhow::{Context, bail};
use clap::Parser;
use horef_bench::compose::line_count;
use horef_bench::expect::{describe, from_header};
use horef_bench::generate::{Options, generate, load_blocks};
use horef_si::suite::expect::Expectation;
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "Compose the benchmark programs into large programs with expectations")]
struct Args {
    /// The building blocks (programs with `(* expect: ... *)` headers).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/programs"))]
    programs: PathBuf,
    /// Where the generated programs go.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/generated"))]
    out: PathBuf,
    /// Target sizes in lines.
    #[arg(long, value_delimiter = ',', default_value = "100,200,400,1000,4000")]
    sizes: Vec<usize>,
    /// The buggy building block of the `-e` programs (its bug must be shallow).
    #[arg(long, default_value = "compose-e")]
    bug: String,
    /// The depth M of `safe up to M` claimed for the safe compositions.
    #[arg(long, default_value_t = 5)]
    safe_depth: u32,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let blocks = load_blocks(&args.programs).map_err(anyhow::Error::msg)?;
    let options = Options {
        sizes: args.sizes,
        bug: args.bug,
        safe_claim: Expectation::SafeUpTo {
            depth: args.safe_depth,
        },
    };
    let programs = generate(&blocks, &options).map_err(anyhow::Error::msg)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    for program in &programs {
        if let Err(e) = horef_si::frontend::load_bytes(&program.file_name, program.text.as_bytes())
        {
            bail!(
                "generated {} does not check:\n{}",
                program.file_name,
                e.render()
            );
        }
        let path = args.out.join(&program.file_name);
        std::fs::write(&path, &program.text)
            .with_context(|| format!("writing {}", path.display()))?;
        let expect = from_header(&program.text).ok().flatten();
        println!(
            "{}: {} lines, {}",
            path.display(),
            line_count(&program.text),
            expect.map_or("no expectation".to_string(), describe)
        );
    }
    Ok(())
}
