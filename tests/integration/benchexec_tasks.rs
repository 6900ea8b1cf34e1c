//! The BenchExec task-definition files (`benchmarks/benchexec/tasks/*.yml`, written by
//! `benchmarks/benchexec/make_tasks.py`) agree with the programs' header expectations: one
//! task per program of `benchmarks/programs`, its bound the one `horef-si suite` uses and
//! its expected verdict `false` exactly when the suite expects a BUG at that bound.

use horef_si::suite::expect::{Expected, header_expectation};
use horef_si::suite::plan::DEFAULT_DEPTH;
use serde_json::Value as Json;
use std::path::PathBuf;

fn benchmarks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benchmarks")
}

#[test]
fn every_program_has_a_task_with_its_expected_verdict() {
    let mut programs: Vec<PathBuf> = std::fs::read_dir(benchmarks().join("programs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "horef"))
        .collect();
    programs.sort();
    assert!(!programs.is_empty());
    let tasks = benchmarks().join("benchexec/tasks");
    for program in &programs {
        let stem = program.file_stem().unwrap().to_str().unwrap();
        let task_path = tasks.join(format!("{stem}.yml"));
        let text = std::fs::read_to_string(&task_path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (run benchmarks/benchexec/make_tasks.py)",
                task_path.display()
            )
        });
        let task: Json = serde_yaml_ng::from_str(&text).unwrap();
        let source = std::fs::read_to_string(program).unwrap();
        let expectation = header_expectation(&source)
            .unwrap_or_else(|e| panic!("{}: {}", program.display(), e.value))
            .unwrap_or_else(|| panic!("{}: no expectation", program.display()))
            .value;
        let (depth, expected) = expectation.at_bound(DEFAULT_DEPTH);
        let what = task_path.display();
        assert_eq!(task["format_version"], "2.0", "{what}");
        assert_eq!(
            task["input_files"],
            format!("../../programs/{stem}.horef"),
            "{what}"
        );
        assert_eq!(task["options"]["max_depth"], depth, "{what}");
        let property = &task["properties"][0];
        assert_eq!(
            property["property_file"], "../properties/unreach-call.prp",
            "{what}"
        );
        assert_eq!(
            property["expected_verdict"],
            expected != Expected::Bug,
            "{what}"
        );
    }
    let count = std::fs::read_dir(&tasks).unwrap().count();
    assert_eq!(
        count,
        programs.len(),
        "a task without its program in {}",
        tasks.display()
    );
}
