PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO alembic_version VALUES('0002_dicecommit');
CREATE TABLE profiles (
	id INTEGER NOT NULL, 
	name VARCHAR(40) NOT NULL, 
	name_key VARCHAR(40) NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name_key)
);
INSERT INTO profiles VALUES(1,'Ann','ann','2026-11-30 16:40:25.156024');
INSERT INTO profiles VALUES(2,'Bob','bob','2026-11-30 16:40:25.156024');
CREATE TABLE games (
	id INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, 
	status VARCHAR(12) NOT NULL, 
	rules_json TEXT NOT NULL, 
	rules_key VARCHAR(40) NOT NULL, 
	first_player VARCHAR(20) NOT NULL, 
	match_length INTEGER NOT NULL, 
	seed BIGINT NOT NULL, 
	practice BOOLEAN NOT NULL, 
	seat_count INTEGER NOT NULL, 
	opening_dice VARCHAR(2000) NOT NULL, 
	version INTEGER NOT NULL, 
	totals_json TEXT NOT NULL, kind VARCHAR(8) DEFAULT 'play' NOT NULL, dice_scheme VARCHAR(20) DEFAULT 'python-random-v0' NOT NULL, server_seed VARCHAR(64), dice_commitment VARCHAR(64), client_seeds_json TEXT, 
	PRIMARY KEY (id)
);
INSERT INTO games VALUES(1,'2026-11-30 16:40:25.156024','2026-11-30 16:40:25.456131','finished','{"column_multipliers": [1], "five_of_a_kind_is_full_house": false, "full_house": 25, "joker": "forced", "large_straight": 40, "of_a_kind_scores": "all_dice", "rolls_per_turn": 3, "small_straight": 30, "straights": "runs", "upper_bonus": true, "upper_bonus_threshold": 63, "upper_bonus_value": 35, "upper_first": false, "yahtzee": 50, "yahtzee_bonus": true, "yahtzee_bonus_condition": "box_scored", "yahtzee_bonus_value": 100}','classic','first_seat',1,9,1,2,'',104,'[24, 48]','play','python-random-v0',NULL,NULL,NULL);
INSERT INTO games VALUES(2,'2026-11-30 16:40:29.244679','2026-11-30 16:40:29.321144','in_progress','{"column_multipliers": [1], "five_of_a_kind_is_full_house": false, "full_house": 30, "joker": "free_choice", "large_straight": 40, "of_a_kind_scores": "all_dice", "rolls_per_turn": 3, "small_straight": 30, "straights": "runs", "upper_bonus": true, "upper_bonus_threshold": 63, "upper_bonus_value": 35, "upper_first": false, "yahtzee": 50, "yahtzee_bonus": true, "yahtzee_bonus_condition": "box_scored", "yahtzee_bonus_value": 100}','custom-27b8d8d831','first_seat',1,4,1,2,'',18,'[13, 11]','play','python-random-v0',NULL,NULL,NULL);
INSERT INTO games VALUES(3,'2026-11-30 16:40:32.606221','2026-11-30 16:40:32.683279','finished','{"column_multipliers": [1], "five_of_a_kind_is_full_house": false, "full_house": 25, "joker": "forced", "large_straight": 40, "of_a_kind_scores": "all_dice", "rolls_per_turn": 3, "small_straight": 30, "straights": "runs", "upper_bonus": true, "upper_bonus_threshold": 63, "upper_bonus_value": 35, "upper_first": false, "yahtzee": 50, "yahtzee_bonus": true, "yahtzee_bonus_condition": "box_scored", "yahtzee_bonus_value": 100}','classic','first_seat',1,1828623010275043545,0,2,'',104,'[31, 33]','play','hmac-sha256-v1','cc403bd0d2d79a4a955ecc49c90da78c85aae58db37a47f08a602ccd34f01e96','1a01dc84deafe3bf2d86442d46ab8f20bb2ba84bd1d6b3bc3607ab21e8bb9f2c','["", ""]');
CREATE TABLE game_seats (
	game_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	name VARCHAR(40) NOT NULL, 
	cpu_level VARCHAR(20), 
	profile_id INTEGER, 
	PRIMARY KEY (game_id, seat), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	FOREIGN KEY(profile_id) REFERENCES profiles (id)
);
INSERT INTO game_seats VALUES(1,0,'Ann',NULL,1);
INSERT INTO game_seats VALUES(1,1,'Bob',NULL,2);
INSERT INTO game_seats VALUES(2,0,'Ann',NULL,1);
INSERT INTO game_seats VALUES(2,1,'Bob',NULL,2);
INSERT INTO game_seats VALUES(3,0,'Ann',NULL,1);
INSERT INTO game_seats VALUES(3,1,'Bob',NULL,2);
CREATE TABLE actions (
	game_id INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	action VARCHAR(60) NOT NULL, 
	dice VARCHAR(2000) NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (game_id, seq), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
INSERT INTO actions VALUES(1,1,0,'roll','15236','2026-11-30 16:40:25.172422');
INSERT INTO actions VALUES(1,2,0,'hold 1','','2026-11-30 16:40:25.173780');
INSERT INTO actions VALUES(1,3,0,'roll','2533','2026-11-30 16:40:25.206763');
INSERT INTO actions VALUES(1,4,0,'score ones','','2026-11-30 16:40:25.207558');
INSERT INTO actions VALUES(1,5,1,'roll','54255','2026-11-30 16:40:25.208030');
INSERT INTO actions VALUES(1,6,1,'hold 1','','2026-11-30 16:40:25.208376');
INSERT INTO actions VALUES(1,7,1,'roll','5541','2026-11-30 16:40:25.208677');
INSERT INTO actions VALUES(1,8,1,'score ones','','2026-11-30 16:40:25.209048');
INSERT INTO actions VALUES(1,9,0,'roll','55563','2026-11-30 16:40:25.209411');
INSERT INTO actions VALUES(1,10,0,'hold 1','','2026-11-30 16:40:25.209682');
INSERT INTO actions VALUES(1,11,0,'roll','4262','2026-11-30 16:40:25.209929');
INSERT INTO actions VALUES(1,12,0,'score twos','','2026-11-30 16:40:25.224256');
INSERT INTO actions VALUES(1,13,1,'roll','66324','2026-11-30 16:40:25.224869');
INSERT INTO actions VALUES(1,14,1,'hold 1','','2026-11-30 16:40:25.225211');
INSERT INTO actions VALUES(1,15,1,'roll','3252','2026-11-30 16:40:25.225502');
INSERT INTO actions VALUES(1,16,1,'score twos','','2026-11-30 16:40:25.225861');
INSERT INTO actions VALUES(1,17,0,'roll','13125','2026-11-30 16:40:25.253599');
INSERT INTO actions VALUES(1,18,0,'hold 1','','2026-11-30 16:40:25.254137');
INSERT INTO actions VALUES(1,19,0,'roll','6654','2026-11-30 16:40:25.254462');
INSERT INTO actions VALUES(1,20,0,'score threes','','2026-11-30 16:40:25.254863');
INSERT INTO actions VALUES(1,21,1,'roll','31455','2026-11-30 16:40:25.255192');
INSERT INTO actions VALUES(1,22,1,'hold 1','','2026-11-30 16:40:25.255445');
INSERT INTO actions VALUES(1,23,1,'roll','5241','2026-11-30 16:40:25.255688');
INSERT INTO actions VALUES(1,24,1,'score threes','','2026-11-30 16:40:25.256022');
INSERT INTO actions VALUES(1,25,0,'roll','33325','2026-11-30 16:40:25.256408');
INSERT INTO actions VALUES(1,26,0,'hold 1','','2026-11-30 16:40:25.256674');
INSERT INTO actions VALUES(1,27,0,'roll','1253','2026-11-30 16:40:25.256928');
INSERT INTO actions VALUES(1,28,0,'score fours','','2026-11-30 16:40:25.257270');
INSERT INTO actions VALUES(1,29,1,'roll','64332','2026-11-30 16:40:25.257584');
INSERT INTO actions VALUES(1,30,1,'hold 1','','2026-11-30 16:40:25.257824');
INSERT INTO actions VALUES(1,31,1,'roll','2626','2026-11-30 16:40:25.290339');
INSERT INTO actions VALUES(1,32,1,'score fours','','2026-11-30 16:40:25.291265');
INSERT INTO actions VALUES(1,33,0,'roll','22422','2026-11-30 16:40:25.291769');
INSERT INTO actions VALUES(1,34,0,'hold 1','','2026-11-30 16:40:25.292108');
INSERT INTO actions VALUES(1,35,0,'roll','2626','2026-11-30 16:40:25.292387');
INSERT INTO actions VALUES(1,36,0,'score fives','','2026-11-30 16:40:25.292732');
INSERT INTO actions VALUES(1,37,1,'roll','32342','2026-11-30 16:40:25.293043');
INSERT INTO actions VALUES(1,38,1,'hold 1','','2026-11-30 16:40:25.293281');
INSERT INTO actions VALUES(1,39,1,'roll','2624','2026-11-30 16:40:25.293512');
INSERT INTO actions VALUES(1,40,1,'score fives','','2026-11-30 16:40:25.293873');
INSERT INTO actions VALUES(1,41,0,'roll','14654','2026-11-30 16:40:25.322633');
INSERT INTO actions VALUES(1,42,0,'hold 1','','2026-11-30 16:40:25.323325');
INSERT INTO actions VALUES(1,43,0,'roll','5423','2026-11-30 16:40:25.323687');
INSERT INTO actions VALUES(1,44,0,'score sixes','','2026-11-30 16:40:25.324134');
INSERT INTO actions VALUES(1,45,1,'roll','33462','2026-11-30 16:40:25.324472');
INSERT INTO actions VALUES(1,46,1,'hold 1','','2026-11-30 16:40:25.324724');
INSERT INTO actions VALUES(1,47,1,'roll','5432','2026-11-30 16:40:25.324963');
INSERT INTO actions VALUES(1,48,1,'score sixes','','2026-11-30 16:40:25.325287');
INSERT INTO actions VALUES(1,49,0,'roll','65645','2026-11-30 16:40:25.325579');
INSERT INTO actions VALUES(1,50,0,'hold 1','','2026-11-30 16:40:25.325811');
INSERT INTO actions VALUES(1,51,0,'roll','1546','2026-11-30 16:40:25.338273');
INSERT INTO actions VALUES(1,52,0,'score three_of_a_kind','','2026-11-30 16:40:25.339110');
INSERT INTO actions VALUES(1,53,1,'roll','34665','2026-11-30 16:40:25.339564');
INSERT INTO actions VALUES(1,54,1,'hold 1','','2026-11-30 16:40:25.339871');
INSERT INTO actions VALUES(1,55,1,'roll','4321','2026-11-30 16:40:25.340146');
INSERT INTO actions VALUES(1,56,1,'score three_of_a_kind','','2026-11-30 16:40:25.340503');
INSERT INTO actions VALUES(1,57,0,'roll','54611','2026-11-30 16:40:25.340847');
INSERT INTO actions VALUES(1,58,0,'hold 1','','2026-11-30 16:40:25.341109');
INSERT INTO actions VALUES(1,59,0,'roll','3266','2026-11-30 16:40:25.341361');
INSERT INTO actions VALUES(1,60,0,'score four_of_a_kind','','2026-11-30 16:40:25.341692');
INSERT INTO actions VALUES(1,61,1,'roll','16625','2026-11-30 16:40:25.366146');
INSERT INTO actions VALUES(1,62,1,'hold 1','','2026-11-30 16:40:25.367010');
INSERT INTO actions VALUES(1,63,1,'roll','3242','2026-11-30 16:40:25.367340');
INSERT INTO actions VALUES(1,64,1,'score four_of_a_kind','','2026-11-30 16:40:25.367688');
INSERT INTO actions VALUES(1,65,0,'roll','54644','2026-11-30 16:40:25.378355');
INSERT INTO actions VALUES(1,66,0,'hold 1','','2026-11-30 16:40:25.378992');
INSERT INTO actions VALUES(1,67,0,'roll','1325','2026-11-30 16:40:25.379313');
INSERT INTO actions VALUES(1,68,0,'score full_house','','2026-11-30 16:40:25.379677');
INSERT INTO actions VALUES(1,69,1,'roll','56343','2026-11-30 16:40:25.380032');
INSERT INTO actions VALUES(1,70,1,'hold 1','','2026-11-30 16:40:25.380287');
INSERT INTO actions VALUES(1,71,1,'roll','2126','2026-11-30 16:40:25.380530');
INSERT INTO actions VALUES(1,72,1,'score full_house','','2026-11-30 16:40:25.401825');
INSERT INTO actions VALUES(1,73,0,'roll','41624','2026-11-30 16:40:25.402731');
INSERT INTO actions VALUES(1,74,0,'hold 1','','2026-11-30 16:40:25.403036');
INSERT INTO actions VALUES(1,75,0,'roll','2463','2026-11-30 16:40:25.403301');
INSERT INTO actions VALUES(1,76,0,'score small_straight','','2026-11-30 16:40:25.403628');
INSERT INTO actions VALUES(1,77,1,'roll','32552','2026-11-30 16:40:25.403999');
INSERT INTO actions VALUES(1,78,1,'hold 1','','2026-11-30 16:40:25.404252');
INSERT INTO actions VALUES(1,79,1,'roll','3564','2026-11-30 16:40:25.404486');
INSERT INTO actions VALUES(1,80,1,'score small_straight','','2026-11-30 16:40:25.404773');
INSERT INTO actions VALUES(1,81,0,'roll','45242','2026-11-30 16:40:25.405081');
INSERT INTO actions VALUES(1,82,0,'hold 1','','2026-11-30 16:40:25.405293');
INSERT INTO actions VALUES(1,83,0,'roll','1654','2026-11-30 16:40:25.405496');
INSERT INTO actions VALUES(1,84,0,'score large_straight','','2026-11-30 16:40:25.405756');
INSERT INTO actions VALUES(1,85,1,'roll','31634','2026-11-30 16:40:25.434966');
INSERT INTO actions VALUES(1,86,1,'hold 1','','2026-11-30 16:40:25.438721');
INSERT INTO actions VALUES(1,87,1,'roll','6124','2026-11-30 16:40:25.439055');
INSERT INTO actions VALUES(1,88,1,'score large_straight','','2026-11-30 16:40:25.439429');
INSERT INTO actions VALUES(1,89,0,'roll','42644','2026-11-30 16:40:25.439794');
INSERT INTO actions VALUES(1,90,0,'hold 1','','2026-11-30 16:40:25.440032');
INSERT INTO actions VALUES(1,91,0,'roll','1366','2026-11-30 16:40:25.440262');
INSERT INTO actions VALUES(1,92,0,'score yahtzee','','2026-11-30 16:40:25.440554');
INSERT INTO actions VALUES(1,93,1,'roll','34214','2026-11-30 16:40:25.440822');
INSERT INTO actions VALUES(1,94,1,'hold 1','','2026-11-30 16:40:25.441029');
INSERT INTO actions VALUES(1,95,1,'roll','6325','2026-11-30 16:40:25.441229');
INSERT INTO actions VALUES(1,96,1,'score yahtzee','','2026-11-30 16:40:25.441489');
INSERT INTO actions VALUES(1,97,0,'roll','55152','2026-11-30 16:40:25.441743');
INSERT INTO actions VALUES(1,98,0,'hold 1','','2026-11-30 16:40:25.441937');
INSERT INTO actions VALUES(1,99,0,'roll','4361','2026-11-30 16:40:25.454670');
INSERT INTO actions VALUES(1,100,0,'score chance','','2026-11-30 16:40:25.455078');
INSERT INTO actions VALUES(1,101,1,'roll','36544','2026-11-30 16:40:25.455436');
INSERT INTO actions VALUES(1,102,1,'hold 1','','2026-11-30 16:40:25.455664');
INSERT INTO actions VALUES(1,103,1,'roll','1123','2026-11-30 16:40:25.455872');
INSERT INTO actions VALUES(1,104,1,'score chance','','2026-11-30 16:40:25.456131');
INSERT INTO actions VALUES(2,1,0,'roll','21462','2026-11-30 16:40:29.291124');
INSERT INTO actions VALUES(2,2,0,'score ones','','2026-11-30 16:40:29.293380');
INSERT INTO actions VALUES(2,3,1,'roll','56132','2026-11-30 16:40:29.293995');
INSERT INTO actions VALUES(2,4,1,'score ones','','2026-11-30 16:40:29.309732');
INSERT INTO actions VALUES(2,5,0,'roll','53152','2026-11-30 16:40:29.312024');
INSERT INTO actions VALUES(2,6,0,'score twos','','2026-11-30 16:40:29.312635');
INSERT INTO actions VALUES(2,7,1,'roll','42165','2026-11-30 16:40:29.313065');
INSERT INTO actions VALUES(2,8,1,'score twos','','2026-11-30 16:40:29.313462');
INSERT INTO actions VALUES(2,9,0,'roll','34163','2026-11-30 16:40:29.313879');
INSERT INTO actions VALUES(2,10,0,'score threes','','2026-11-30 16:40:29.318417');
INSERT INTO actions VALUES(2,11,1,'roll','42644','2026-11-30 16:40:29.318889');
INSERT INTO actions VALUES(2,12,1,'score threes','','2026-11-30 16:40:29.319268');
INSERT INTO actions VALUES(2,13,0,'roll','66343','2026-11-30 16:40:29.319582');
INSERT INTO actions VALUES(2,14,0,'score fours','','2026-11-30 16:40:29.319907');
INSERT INTO actions VALUES(2,15,1,'roll','35434','2026-11-30 16:40:29.320239');
INSERT INTO actions VALUES(2,16,1,'score fours','','2026-11-30 16:40:29.320568');
INSERT INTO actions VALUES(2,17,0,'roll','56131','2026-11-30 16:40:29.320888');
INSERT INTO actions VALUES(2,18,0,'hold 2 3','','2026-11-30 16:40:29.321144');
INSERT INTO actions VALUES(3,1,0,'roll','43123','2026-11-30 16:40:32.626327');
INSERT INTO actions VALUES(3,2,0,'hold 1','','2026-11-30 16:40:32.628219');
INSERT INTO actions VALUES(3,3,0,'roll','5532','2026-11-30 16:40:32.628638');
INSERT INTO actions VALUES(3,4,0,'score ones','','2026-11-30 16:40:32.629087');
INSERT INTO actions VALUES(3,5,1,'roll','55555','2026-11-30 16:40:32.629457');
INSERT INTO actions VALUES(3,6,1,'hold 1','','2026-11-30 16:40:32.629770');
INSERT INTO actions VALUES(3,7,1,'roll','2312','2026-11-30 16:40:32.646352');
INSERT INTO actions VALUES(3,8,1,'score ones','','2026-11-30 16:40:32.647271');
INSERT INTO actions VALUES(3,9,0,'roll','61553','2026-11-30 16:40:32.648075');
INSERT INTO actions VALUES(3,10,0,'hold 1','','2026-11-30 16:40:32.648536');
INSERT INTO actions VALUES(3,11,0,'roll','1115','2026-11-30 16:40:32.648875');
INSERT INTO actions VALUES(3,12,0,'score twos','','2026-11-30 16:40:32.652997');
INSERT INTO actions VALUES(3,13,1,'roll','25623','2026-11-30 16:40:32.653548');
INSERT INTO actions VALUES(3,14,1,'hold 1','','2026-11-30 16:40:32.654094');
INSERT INTO actions VALUES(3,15,1,'roll','5345','2026-11-30 16:40:32.655395');
INSERT INTO actions VALUES(3,16,1,'score twos','','2026-11-30 16:40:32.655799');
INSERT INTO actions VALUES(3,17,0,'roll','34521','2026-11-30 16:40:32.656301');
INSERT INTO actions VALUES(3,18,0,'hold 1','','2026-11-30 16:40:32.656578');
INSERT INTO actions VALUES(3,19,0,'roll','6622','2026-11-30 16:40:32.656843');
INSERT INTO actions VALUES(3,20,0,'score threes','','2026-11-30 16:40:32.657452');
INSERT INTO actions VALUES(3,21,1,'roll','51524','2026-11-30 16:40:32.657938');
INSERT INTO actions VALUES(3,22,1,'hold 1','','2026-11-30 16:40:32.658261');
INSERT INTO actions VALUES(3,23,1,'roll','2514','2026-11-30 16:40:32.658527');
INSERT INTO actions VALUES(3,24,1,'score threes','','2026-11-30 16:40:32.658881');
INSERT INTO actions VALUES(3,25,0,'roll','63321','2026-11-30 16:40:32.659294');
INSERT INTO actions VALUES(3,26,0,'hold 1','','2026-11-30 16:40:32.659542');
INSERT INTO actions VALUES(3,27,0,'roll','6221','2026-11-30 16:40:32.659798');
INSERT INTO actions VALUES(3,28,0,'score fours','','2026-11-30 16:40:32.660140');
INSERT INTO actions VALUES(3,29,1,'roll','35544','2026-11-30 16:40:32.660548');
INSERT INTO actions VALUES(3,30,1,'hold 1','','2026-11-30 16:40:32.660805');
INSERT INTO actions VALUES(3,31,1,'roll','6243','2026-11-30 16:40:32.661054');
INSERT INTO actions VALUES(3,32,1,'score fours','','2026-11-30 16:40:32.661386');
INSERT INTO actions VALUES(3,33,0,'roll','64455','2026-11-30 16:40:32.661837');
INSERT INTO actions VALUES(3,34,0,'hold 1','','2026-11-30 16:40:32.662132');
INSERT INTO actions VALUES(3,35,0,'roll','1651','2026-11-30 16:40:32.662394');
INSERT INTO actions VALUES(3,36,0,'score fives','','2026-11-30 16:40:32.662716');
INSERT INTO actions VALUES(3,37,1,'roll','61611','2026-11-30 16:40:32.663151');
INSERT INTO actions VALUES(3,38,1,'hold 1','','2026-11-30 16:40:32.663817');
INSERT INTO actions VALUES(3,39,1,'roll','5521','2026-11-30 16:40:32.664134');
INSERT INTO actions VALUES(3,40,1,'score fives','','2026-11-30 16:40:32.664470');
INSERT INTO actions VALUES(3,41,0,'roll','64441','2026-11-30 16:40:32.664921');
INSERT INTO actions VALUES(3,42,0,'hold 1','','2026-11-30 16:40:32.665166');
INSERT INTO actions VALUES(3,43,0,'roll','1323','2026-11-30 16:40:32.665419');
INSERT INTO actions VALUES(3,44,0,'score sixes','','2026-11-30 16:40:32.665729');
INSERT INTO actions VALUES(3,45,1,'roll','16221','2026-11-30 16:40:32.666213');
INSERT INTO actions VALUES(3,46,1,'hold 1','','2026-11-30 16:40:32.666470');
INSERT INTO actions VALUES(3,47,1,'roll','2234','2026-11-30 16:40:32.666711');
INSERT INTO actions VALUES(3,48,1,'score sixes','','2026-11-30 16:40:32.667036');
INSERT INTO actions VALUES(3,49,0,'roll','41312','2026-11-30 16:40:32.667433');
INSERT INTO actions VALUES(3,50,0,'hold 1','','2026-11-30 16:40:32.667685');
INSERT INTO actions VALUES(3,51,0,'roll','4326','2026-11-30 16:40:32.667924');
INSERT INTO actions VALUES(3,52,0,'score three_of_a_kind','','2026-11-30 16:40:32.668233');
INSERT INTO actions VALUES(3,53,1,'roll','31163','2026-11-30 16:40:32.668618');
INSERT INTO actions VALUES(3,54,1,'hold 1','','2026-11-30 16:40:32.668852');
INSERT INTO actions VALUES(3,55,1,'roll','5316','2026-11-30 16:40:32.669087');
INSERT INTO actions VALUES(3,56,1,'score three_of_a_kind','','2026-11-30 16:40:32.669393');
INSERT INTO actions VALUES(3,57,0,'roll','21423','2026-11-30 16:40:32.669777');
INSERT INTO actions VALUES(3,58,0,'hold 1','','2026-11-30 16:40:32.670008');
INSERT INTO actions VALUES(3,59,0,'roll','3625','2026-11-30 16:40:32.670293');
INSERT INTO actions VALUES(3,60,0,'score four_of_a_kind','','2026-11-30 16:40:32.670598');
INSERT INTO actions VALUES(3,61,1,'roll','63315','2026-11-30 16:40:32.670985');
INSERT INTO actions VALUES(3,62,1,'hold 1','','2026-11-30 16:40:32.671218');
INSERT INTO actions VALUES(3,63,1,'roll','1631','2026-11-30 16:40:32.671461');
INSERT INTO actions VALUES(3,64,1,'score four_of_a_kind','','2026-11-30 16:40:32.671772');
INSERT INTO actions VALUES(3,65,0,'roll','42533','2026-11-30 16:40:32.672159');
INSERT INTO actions VALUES(3,66,0,'hold 1','','2026-11-30 16:40:32.672385');
INSERT INTO actions VALUES(3,67,0,'roll','1236','2026-11-30 16:40:32.672610');
INSERT INTO actions VALUES(3,68,0,'score full_house','','2026-11-30 16:40:32.672901');
INSERT INTO actions VALUES(3,69,1,'roll','32123','2026-11-30 16:40:32.673277');
INSERT INTO actions VALUES(3,70,1,'hold 1','','2026-11-30 16:40:32.673498');
INSERT INTO actions VALUES(3,71,1,'roll','1425','2026-11-30 16:40:32.673751');
INSERT INTO actions VALUES(3,72,1,'score full_house','','2026-11-30 16:40:32.674088');
INSERT INTO actions VALUES(3,73,0,'roll','61625','2026-11-30 16:40:32.674479');
INSERT INTO actions VALUES(3,74,0,'hold 1','','2026-11-30 16:40:32.674700');
INSERT INTO actions VALUES(3,75,0,'roll','5662','2026-11-30 16:40:32.674923');
INSERT INTO actions VALUES(3,76,0,'score small_straight','','2026-11-30 16:40:32.675202');
INSERT INTO actions VALUES(3,77,1,'roll','53262','2026-11-30 16:40:32.675570');
INSERT INTO actions VALUES(3,78,1,'hold 1','','2026-11-30 16:40:32.675784');
INSERT INTO actions VALUES(3,79,1,'roll','3513','2026-11-30 16:40:32.676005');
INSERT INTO actions VALUES(3,80,1,'score small_straight','','2026-11-30 16:40:32.676582');
INSERT INTO actions VALUES(3,81,0,'roll','32524','2026-11-30 16:40:32.677045');
INSERT INTO actions VALUES(3,82,0,'hold 1','','2026-11-30 16:40:32.677278');
INSERT INTO actions VALUES(3,83,0,'roll','3342','2026-11-30 16:40:32.677510');
INSERT INTO actions VALUES(3,84,0,'score large_straight','','2026-11-30 16:40:32.677791');
INSERT INTO actions VALUES(3,85,1,'roll','14246','2026-11-30 16:40:32.678202');
INSERT INTO actions VALUES(3,86,1,'hold 1','','2026-11-30 16:40:32.678441');
INSERT INTO actions VALUES(3,87,1,'roll','4431','2026-11-30 16:40:32.678663');
INSERT INTO actions VALUES(3,88,1,'score large_straight','','2026-11-30 16:40:32.678937');
INSERT INTO actions VALUES(3,89,0,'roll','54163','2026-11-30 16:40:32.679299');
INSERT INTO actions VALUES(3,90,0,'hold 1','','2026-11-30 16:40:32.679515');
INSERT INTO actions VALUES(3,91,0,'roll','2416','2026-11-30 16:40:32.679730');
INSERT INTO actions VALUES(3,92,0,'score yahtzee','','2026-11-30 16:40:32.679996');
INSERT INTO actions VALUES(3,93,1,'roll','21433','2026-11-30 16:40:32.680354');
INSERT INTO actions VALUES(3,94,1,'hold 1','','2026-11-30 16:40:32.680566');
INSERT INTO actions VALUES(3,95,1,'roll','1145','2026-11-30 16:40:32.680779');
INSERT INTO actions VALUES(3,96,1,'score yahtzee','','2026-11-30 16:40:32.681067');
INSERT INTO actions VALUES(3,97,0,'roll','12645','2026-11-30 16:40:32.681432');
INSERT INTO actions VALUES(3,98,0,'hold 1','','2026-11-30 16:40:32.681638');
INSERT INTO actions VALUES(3,99,0,'roll','2644','2026-11-30 16:40:32.681851');
INSERT INTO actions VALUES(3,100,0,'score chance','','2026-11-30 16:40:32.682144');
INSERT INTO actions VALUES(3,101,1,'roll','51455','2026-11-30 16:40:32.682581');
INSERT INTO actions VALUES(3,102,1,'hold 1','','2026-11-30 16:40:32.682801');
INSERT INTO actions VALUES(3,103,1,'roll','1262','2026-11-30 16:40:32.683017');
INSERT INTO actions VALUES(3,104,1,'score chance','','2026-11-30 16:40:32.683279');
CREATE TABLE results (
	game_id INTEGER NOT NULL, 
	game_number INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	profile_id INTEGER, 
	total INTEGER NOT NULL, 
	rank INTEGER NOT NULL, 
	upper_bonuses INTEGER NOT NULL, 
	yahtzees INTEGER NOT NULL, 
	boxes_json TEXT NOT NULL, 
	finished_at DATETIME NOT NULL, 
	PRIMARY KEY (game_id, game_number, seat), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	FOREIGN KEY(profile_id) REFERENCES profiles (id)
);
INSERT INTO results VALUES(1,1,0,1,24,2,0,0,'{"ones": [1], "twos": [4], "threes": [0], "fours": [0], "fives": [0], "sixes": [0], "three_of_a_kind": [0], "four_of_a_kind": [0], "full_house": [0], "small_straight": [0], "large_straight": [0], "yahtzee": [0], "chance": [19]}','2026-11-30 16:40:25.456131');
INSERT INTO results VALUES(1,1,1,2,48,1,0,0,'{"ones": [1], "twos": [4], "threes": [3], "fours": [0], "fives": [0], "sixes": [0], "three_of_a_kind": [0], "four_of_a_kind": [0], "full_house": [0], "small_straight": [30], "large_straight": [0], "yahtzee": [0], "chance": [10]}','2026-11-30 16:40:25.456131');
INSERT INTO results VALUES(3,1,0,1,31,2,0,0,'{"ones": [0], "twos": [0], "threes": [3], "fours": [0], "fives": [5], "sixes": [6], "three_of_a_kind": [0], "four_of_a_kind": [0], "full_house": [0], "small_straight": [0], "large_straight": [0], "yahtzee": [0], "chance": [17]}','2026-11-30 16:40:32.683279');
INSERT INTO results VALUES(3,1,1,2,33,1,0,0,'{"ones": [1], "twos": [2], "threes": [0], "fours": [4], "fives": [10], "sixes": [0], "three_of_a_kind": [0], "four_of_a_kind": [0], "full_house": [0], "small_straight": [0], "large_straight": [0], "yahtzee": [0], "chance": [16]}','2026-11-30 16:40:32.683279');
CREATE TABLE web_seats (
	session_key VARCHAR(64) NOT NULL, 
	game_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (session_key, game_id, seat), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
CREATE TABLE game_sessions (
	game_id INTEGER NOT NULL, 
	session_json TEXT NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (game_id), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
CREATE TABLE tutorial_progress (
	owner VARCHAR(64) NOT NULL, 
	lesson VARCHAR(40) NOT NULL, 
	status VARCHAR(12) NOT NULL, 
	times_done INTEGER NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (owner, lesson)
);
CREATE TABLE rooms (
	id INTEGER NOT NULL, 
	code VARCHAR(6) NOT NULL, 
	host_key VARCHAR(64) NOT NULL, 
	status VARCHAR(8) NOT NULL, 
	options_json TEXT NOT NULL, 
	version INTEGER NOT NULL, 
	game_id INTEGER, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (code), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
CREATE TABLE room_seats (
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	name VARCHAR(40) NOT NULL, 
	level VARCHAR(20), 
	joined BOOLEAN NOT NULL, 
	game_seat INTEGER, 
	PRIMARY KEY (room_id, seat), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
CREATE TABLE room_claims (
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	session_key VARCHAR(64) NOT NULL, 
	PRIMARY KEY (room_id, seat, session_key), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
CREATE INDEX ix_games_status ON games (status);
CREATE INDEX ix_results_profile ON results (profile_id);
CREATE INDEX ix_web_seats_game ON web_seats (game_id);
CREATE INDEX ix_rooms_game ON rooms (game_id);
COMMIT;
