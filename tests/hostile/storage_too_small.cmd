compile tests/hostile/storage_too_small.py -o build/hostile/out
