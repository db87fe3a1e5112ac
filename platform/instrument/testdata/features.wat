;; A runnable module touching most instruction encodings wazero supports: it computes a
;; checksum, prints it and exits with its low byte. Instrumented, it must print the same.
(module
  (type $un (func (param i32) (result i32)))
  (type $pair (func (param i32 i32) (result i32 i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 1 2)
  (table $t 8 funcref)
  (table $x 2 externref)
  (table $t2 4 funcref)
  (global $sum (mut i32) (i32.const 0))
  (global $gf funcref (ref.func $triple))
  (global $g64 (mut i64) (i64.const -1234567890123))
  (data $d "\01\02\03\04\05\06\07\08\09\0a\0b\0c\0d\0e\0f\10")
  (data (i32.const 64) "abcdefgh")

  (elem (i32.const 0) $double $triple)                        ;; flags 0
  (elem $pf func $double $square)                             ;; flags 1
  (elem (table $t2) (i32.const 2) func $triple $double)       ;; flags 2
  (elem declare func $square)                                 ;; flags 3
  (elem (i32.const 4) funcref (ref.func $square) (ref.null func)) ;; flags 4
  (elem $pe funcref (ref.func $triple) (ref.null func))       ;; flags 5
  (elem (table $t2) (i32.const 0) funcref (ref.func $double) (ref.null func)) ;; flags 6
  (elem declare funcref (ref.func $double) (ref.null func))   ;; flags 7

  (func $double (type $un) (i32.mul (local.get 0) (i32.const 2)))
  (func $triple (type $un) (i32.mul (local.get 0) (i32.const 3)))
  (func $square (type $un) (i32.mul (local.get 0) (local.get 0)))

  (func $add (param $v i32)
    (global.set $sum (i32.add (i32.mul (global.get $sum) (i32.const 31)) (local.get $v))))

  ;; a loop with multi-value block parameters
  (func $loops (param $n i32) (result i32) (local $i i32) (local $acc i32)
    (i32.const 0) (i32.const 1)
    (loop $l (param i32 i32) (result i32 i32)
      (local.set $acc) (local.set $i)
      (local.get $i) (i32.const 1) (i32.add)
      (local.get $acc) (local.get $i) (i32.add)
      (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
    (drop))

  (func $swap (type $pair) (local.get 1) (local.get 0))

  ;; tail calls, with and without a table
  (func $fact (param $n i32) (param $acc i32) (result i32)
    (if (result i32) (i32.le_u (local.get $n) (i32.const 1))
      (then (local.get $acc))
      (else (return_call $fact (i32.sub (local.get $n) (i32.const 1)) (i32.mul (local.get $n) (local.get $acc))))))
  (func $via_table (param i32) (result i32)
    (return_call_indirect $t (type $un) (local.get 0) (i32.const 1)))

  (func $simd (result i32)
    (v128.store (i32.const 128) (v128.const i32x4 1 2 3 4))
    (i32x4.extract_lane 2
      (i32x4.add
        (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 (v128.load (i32.const 128)) (v128.const i64x2 0 0))
        (v128.load32_lane 1 (i32.const 132) (i32x4.splat (i32.const 7))))))

  (func $bulk (result i32)
    (memory.fill (i32.const 256) (i32.const 9) (i32.const 16))
    (memory.copy (i32.const 272) (i32.const 64) (i32.const 8))
    (memory.init $d (i32.const 280) (i32.const 2) (i32.const 4))
    (data.drop $d)
    (table.init $t $pe (i32.const 6) (i32.const 0) (i32.const 1))
    (elem.drop $pe)
    (table.copy $t $t2 (i32.const 7) (i32.const 2) (i32.const 1))
    (drop (table.grow $x (ref.null extern) (i32.const 1)))
    (table.fill $x (i32.const 0) (ref.null extern) (i32.const 3))
    (i32.add (i32.add (i32.load (i32.const 256)) (i32.load (i32.const 276)))
      (i32.add (i32.load (i32.const 280)) (i32.add (table.size $t) (table.size $x)))))

  (func $refs (result i32)
    (i32.add
      (call_indirect $t (type $un) (i32.const 5) (i32.const 7))
      (i32.add (ref.is_null (global.get $gf))
        (ref.is_null (table.get $x (i32.const 0))))))

  (func $misc (result i32) (local $f f32) (local $d f64)
    (local.set $f (f32.const 3.75))
    (local.set $d (f64.const -1e300))
    (i32.add
      (i32.add (i32.extend8_s (i32.const 0x80)) (i32.trunc_sat_f64_s (local.get $d)))
      (i32.add (i32.trunc_f32_s (local.get $f))
        (select (result i32) (i32.const 10) (i32.const 20) (i32.wrap_i64 (global.get $g64))))))

  (func $atomics (result i32)
    (drop (i32.atomic.rmw.add (i32.const 512) (i32.const 5)))
    (atomic.fence)
    (i32.atomic.load (i32.const 512)))

  (func $rec (param $n i32) (result i32)
    (if (result i32) (i32.eqz (local.get $n))
      (then (i32.const 1))
      (else (i32.add (call $rec (i32.sub (local.get $n) (i32.const 1)))
                     (call $rec (i32.sub (local.get $n) (i32.const 1)))))))

  (func (export "_start") (local $p i32) (local $n i32)
    (call $add (call $loops (i32.const 100000)))
    (call $add (call $swap (i32.const 3) (i32.const 4)) (drop))
    (call $add (call $fact (i32.const 10) (i32.const 1)))
    (call $add (call $via_table (i32.const 21)))
    (call $add (call $simd))
    (call $add (call $bulk))
    (call $add (call $refs))
    (call $add (call $misc))
    (call $add (call $atomics))
    (call $add (call $rec (i32.const 16)))
    ;; print the checksum in decimal, backwards from offset 1024
    (local.set $p (i32.const 1024))
    (local.set $n (global.get $sum))
    (i32.store8 (local.get $p) (i32.const 10))
    (loop $digits
      (local.set $p (i32.sub (local.get $p) (i32.const 1)))
      (i32.store8 (local.get $p) (i32.add (i32.const 48) (i32.rem_u (local.get $n) (i32.const 10))))
      (local.set $n (i32.div_u (local.get $n) (i32.const 10)))
      (br_if $digits (local.get $n)))
    (i32.store (i32.const 0) (local.get $p))
    (i32.store (i32.const 4) (i32.sub (i32.const 1025) (local.get $p)))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))
    (call $exit (i32.and (global.get $sum) (i32.const 0xff))))
  (start $start_fn)
  (func $start_fn (call $add (i32.const 1)))
)
