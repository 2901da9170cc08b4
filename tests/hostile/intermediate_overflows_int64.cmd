compile tests/hostile/intermediate_overflows_int64.py -o build/hostile/out
