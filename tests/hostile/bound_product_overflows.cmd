compile tests/hostile/bound_product_overflows.py -o build/hostile/out
