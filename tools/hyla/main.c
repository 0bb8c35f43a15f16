int hyla_placeholder_main;
