;; Branches out of loops, which the instrumenter wraps in three blocks of its own
;; (code.go, wrapLoop): every label that crosses a wrapped loop is renumbered. Each
;; export returns a checksum that must not change once instrumented, at any interval.
(module
  (memory 1)
  ;; br_if to a block outside two nested loops, br to the inner loop, fallthrough
  (func (export "nested") (result i32) (local $i i32) (local $j i32) (local $s i32)
    (block $out
      (loop $outer
        (local.set $j (i32.const 0))
        (loop $inner
          (local.set $s (i32.add (local.get $s) (i32.mul (local.get $i) (local.get $j))))
          (br_if $out (i32.gt_u (local.get $s) (i32.const 2000000)))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br_if $inner (i32.lt_u (local.get $j) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $outer (i32.lt_u (local.get $i) (i32.const 300)))))
    (i32.add (local.get $s) (i32.mul (local.get $i) (i32.const 1000003))))
  ;; loops with results: leaving by fallthrough and by a value-carrying br to a block
  (func (export "results") (result i32) (local $i i32)
    (i32.add
      (block $b (result i32)
        (loop $l (result i32)
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (drop (br_if $b (i32.mul (local.get $i) (i32.const 7)) (i32.eq (local.get $i) (i32.const 5000))))
          (br_if $l (i32.lt_u (local.get $i) (i32.const 100000)))
          (i32.const -1)))
      (loop $m (result i32)
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (br_if $m (i32.gt_s (local.get $i) (i32.const 0)))
        (local.get $i))))
  ;; br_table whose targets are the loop, the blocks around it and the function
  (func (export "table") (result i32) (local $i i32) (local $s i32)
    (block $done
      (loop $l
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (block $c
          (block $b
            (block $a
              (br_table $a $b $c $l $done $a (i32.rem_u (local.get $i) (i32.const 7))))
            (local.set $s (i32.add (local.get $s) (i32.const 1)))
            (br $l))
          (local.set $s (i32.add (local.get $s) (i32.const 10)))
          (br_if $done (i32.gt_u (local.get $i) (i32.const 50000)))
          (br $l))
        (local.set $s (i32.add (local.get $s) (i32.const 100)))
        (br_if 1 (i32.gt_u (local.get $s) (i32.const 1000000000)))
        (br $l)))
    (i32.add (local.get $s) (local.get $i)))
  ;; a br straight to the function's label from deep in loops, and an if/else in one
  (func (export "early") (result i32) (local $i i32)
    (loop $l
      (if (i32.and (local.get $i) (i32.const 1))
        (then (local.set $i (i32.add (local.get $i) (i32.const 3))))
        (else (local.set $i (i32.add (local.get $i) (i32.const 1)))))
      (loop $k
        (drop (br_if 2 (i32.mul (local.get $i) (i32.const 3)) (i32.gt_u (local.get $i) (i32.const 30000))))
        (br_if $k (i32.eqz (i32.and (local.get $i) (i32.const 0x100)))
          (local.set $i (i32.add (local.get $i) (i32.const 0x100)))))
      (br $l))
    (i32.const -7))
)
