compile tests/hostile/inplace_output_mismatch.py -o build/hostile/out
